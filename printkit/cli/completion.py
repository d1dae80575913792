"""Shell completion for bash, zsh and fish, written from the command line's own parser so the two never differ."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")
GAME_METAVARS = ("GAME|PATH",)
GAMES = "printkit list --names 2>/dev/null"  # the game names a GAME may be, from the project it runs in


@dataclass
class Spec:
    """What one command completes: its options, the values some of them take, what its positionals are."""

    name: str
    summary: str
    flags: list[str] = field(default_factory=list)  # options that take no value
    valued: dict[str, list[str]] = field(default_factory=dict)  # option -> its choices ([] for free text)
    helps: dict[str, str] = field(default_factory=dict)  # option -> its help line
    positional: str = ""  # "games", "choices:a b c", "files", or ""


def specs(top: argparse.ArgumentParser) -> list[Spec]:
    """Every command of the parser, read from its argparse actions."""
    commands = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    summaries = {a.dest: a.help or "" for a in commands._choices_actions}
    out = []
    for name, parser in commands.choices.items():
        spec = Spec(name, summaries.get(name, ""))
        for action in parser._actions:
            if action.option_strings:
                long = max(action.option_strings, key=len)
                spec.helps[long] = (action.help or "").replace("%%", "%")
                if action.nargs == 0:
                    spec.flags += action.option_strings
                else:
                    for option in action.option_strings:
                        spec.valued[option] = [str(c) for c in action.choices or []]
            elif not spec.positional:  # the first positional decides: later ones complete as files
                if action.choices:
                    spec.positional = "choices:" + " ".join(str(c) for c in action.choices)
                elif action.metavar in GAME_METAVARS:
                    spec.positional = "games"
                else:
                    spec.positional = "files"
        out.append(spec)
    return out


def script(shell: str, top: argparse.ArgumentParser) -> str:
    if shell == "fish":
        return _fish(specs(top))
    bash = _bash(specs(top))
    if shell == "zsh":  # zsh runs bash completion functions through its bashcompinit layer
        return "#compdef printkit\nautoload -U +X bashcompinit && bashcompinit\n" + bash
    return bash


def _bash(all_specs: list[Spec]) -> str:
    names = " ".join(s.name for s in all_specs)
    cases = []
    for spec in all_specs:
        valued = " ".join(sorted(spec.valued))
        options = " ".join(sorted(spec.flags + list(spec.valued)))
        choices = "\n".join(
            f'            {option}) COMPREPLY=($(compgen -W "{" ".join(values)}" -- "$cur")); return ;;'
            for option, values in sorted(spec.valued.items())
            if values
        )
        pattern = valued.replace(" ", "|")
        free = f'            {pattern}) COMPREPLY=($(compgen -f -- "$cur")); return ;;' if valued else ""
        games = f'$(compgen -W "$({GAMES})" -- "$cur")'
        if spec.positional == "games":
            words = f'COMPREPLY=({games} $(compgen -d -- "$cur"))'
        elif spec.positional.startswith("choices:"):
            words = f'COMPREPLY=($(compgen -W "{spec.positional[8:]}" -- "$cur") {games})'
        else:
            words = 'COMPREPLY=($(compgen -f -- "$cur"))'
        cases.append(
            f"        {spec.name})\n"
            f'            case "$prev" in\n{choices}\n{free}\n            esac\n'
            f'            if [[ "$cur" == -* ]]; then\n'
            f'                COMPREPLY=($(compgen -W "{options}" -- "$cur"))\n'
            f"            else\n"
            f"                {words}\n"
            f"            fi\n"
            f"            ;;"
        )
    body = "\n".join(cases)
    return f"""# printkit completion for bash (printkit completion bash)
_printkit() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" command="" word
    for word in "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"; do
        case "$word" in -*) ;; *) command="$word"; break ;; esac
    done
    if [[ -z "$command" ]]; then
        COMPREPLY=($(compgen -W "{names} --help --version --quiet --verbose --debug" -- "$cur"))
        return
    fi
    case "$command" in
{body}
    esac
}}
complete -F _printkit printkit
"""


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish(all_specs: list[Spec]) -> str:
    names = " ".join(s.name for s in all_specs)
    lines = [
        "# printkit completion for fish (printkit completion fish)",
        "complete -c printkit -f",
        f"complete -c printkit -n 'not __fish_seen_subcommand_from {names}' -l help -d 'the commands'",
        f"complete -c printkit -n 'not __fish_seen_subcommand_from {names}' -l version -d 'the version'",
    ]
    for spec in all_specs:
        lines.append(
            f"complete -c printkit -n 'not __fish_seen_subcommand_from {names}' "
            f"-a {spec.name} -d {_fish_quote(spec.summary)}"
        )
        when = f"-n '__fish_seen_subcommand_from {spec.name}'"
        for option, values in sorted(spec.valued.items()):
            if not option.startswith("--"):
                continue
            described = f" -d {_fish_quote(spec.helps.get(option, ''))}"
            if values:
                lines.append(
                    f"complete -c printkit {when} -l {option[2:]} -x -a {_fish_quote(' '.join(values))}{described}"
                )
            else:
                lines.append(f"complete -c printkit {when} -l {option[2:]} -r -F{described}")
        for option in sorted(o for o in spec.flags if o.startswith("--")):
            lines.append(f"complete -c printkit {when} -l {option[2:]} -d {_fish_quote(spec.helps.get(option, ''))}")
        if spec.positional == "games":
            lines.append(f"complete -c printkit {when} -a '({GAMES})' -d game")
            lines.append(f"complete -c printkit {when} -a '(__fish_complete_directories)'")
        elif spec.positional.startswith("choices:"):
            lines.append(f"complete -c printkit {when} -a {_fish_quote(spec.positional[8:])}")
            lines.append(f"complete -c printkit {when} -a '({GAMES})' -d game")
        elif spec.positional == "files":
            lines.append(f"complete -c printkit {when} -F")
    return "\n".join(lines) + "\n"
