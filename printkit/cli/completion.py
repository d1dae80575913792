"""Shell completion for bash, zsh and fish, written from the command line's own parser so the two never differ.

Every option's value and every positional has a kind, read from its argparse action: "words:a b c" (a comma
may join several, as in --only cards,rules), "games" (the project's game names and folders), "dirs", "files"
or "none" (a number or free text: nothing to offer). An option whose values printkit checks itself, not
argparse, names its words with offers().
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")
GAME_METAVARS = ("GAME|PATH",)
GAMES = "printkit list --names 2>/dev/null"  # the game names a GAME may be, from the project it runs in


def offers(action: argparse.Action, kind: str) -> None:
    """Name what completion offers for action's value: "words:a b c", "games", "dirs", "files" or "none"."""
    action.complete = kind  # type: ignore[attr-defined]


def kind_of(action: argparse.Action) -> str:
    """What completion offers for one option's value or one positional."""
    named = getattr(action, "complete", None)
    if named:
        return str(named)
    if action.choices:
        return "words:" + " ".join(str(c) for c in action.choices)
    if action.metavar in GAME_METAVARS:
        return "games"
    if action.metavar == "FOLDER" or action.dest == "folder":
        return "dirs"
    if action.metavar == "FILE" or action.dest == "file":
        return "files"
    return "none"


@dataclass
class Spec:
    """What one command completes: its options, what their values are, and its positionals in order."""

    name: str
    summary: str
    flags: list[str] = field(default_factory=list)  # options that take no value
    valued: dict[str, str] = field(default_factory=dict)  # option -> the kind of its value
    helps: dict[str, str] = field(default_factory=dict)  # option -> its help line
    positionals: list[str] = field(default_factory=list)  # the kind of each positional, in order
    repeats: bool = False  # the last positional takes any number of words


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
                    spec.valued |= dict.fromkeys(action.option_strings, kind_of(action))
            else:
                spec.positionals.append(kind_of(action))
                spec.repeats = action.nargs in ("*", "+")
        out.append(spec)
    return out


def script(shell: str, top: argparse.ArgumentParser) -> str:
    if shell == "fish":
        return _fish(specs(top))
    bash = _bash(specs(top))
    if shell == "zsh":  # zsh runs bash completion functions through its bashcompinit layer, after compinit
        return (
            "# printkit completion for zsh (printkit completion zsh): source it from ~/.zshrc\n"
            "(( $+functions[compdef] )) || { autoload -U compinit && compinit; }\n"
            "autoload -U bashcompinit && bashcompinit\n" + bash.split("\n", 1)[1]
        )
    return bash


_BASH_HELPERS = f"""# printkit completion for bash (printkit completion bash)
# zsh runs these through bashcompinit, in sh emulation: arrays count from 0 there too

_printkit_offer() {{  # what a value of this kind may be, for the word being typed ($cur)
    local head=""
    case "$1" in
        games) COMPREPLY=($(compgen -W "$({GAMES})" -- "$cur") $(compgen -d -- "$cur")) ;;
        dirs) COMPREPLY=($(compgen -d -- "$cur")) ;;
        files) COMPREPLY=($(compgen -f -- "$cur")) ;;
        words:*)
            # a list such as a4,letter: complete the part after the last comma, keep what is before it
            case "$cur" in *,*) head="${{cur%,*}}," ;; esac
            COMPREPLY=($(compgen -P "$head" -W "${{1#words:}}" -- "${{cur##*,}}")) ;;
        *) COMPREPLY=() ;;
    esac
    case "$1" in dirs | files | games) type compopt >/dev/null 2>&1 && compopt -o filenames ;; esac
}}

_printkit_position() {{  # how many positionals stand between the command and $cur; $1: options taking a value
    local i word skip=0
    n=0
    for ((i = at + 1; i < COMP_CWORD; i++)); do
        word="${{COMP_WORDS[i]}}"
        if ((skip)); then
            [[ "$word" == "=" ]] || skip=0  # bash splits --paper=a4 into --paper, =, a4
            continue
        fi
        case "$word" in
            -*=*) ;;
            -*) [[ " $1 " == *" $word "* ]] && skip=1 ;;
            *) n=$((n + 1)) ;;
        esac
    done
}}
"""


def _bash(all_specs: list[Spec]) -> str:
    names = " ".join(s.name for s in all_specs)
    cases = []
    for spec in all_specs:
        by_kind: dict[str, list[str]] = {}
        for option, kind in spec.valued.items():
            by_kind.setdefault(kind, []).append(option)
        values = "\n".join(
            f"                {'|'.join(sorted(options))}) _printkit_offer '{kind}'; return ;;"
            for kind, options in sorted(by_kind.items())
        )
        options = " ".join(sorted(spec.flags + list(spec.valued)))
        places = [f"                {i}) _printkit_offer '{kind}' ;;" for i, kind in enumerate(spec.positionals)]
        if spec.repeats and spec.positionals:
            places[-1] = f"                *) _printkit_offer '{spec.positionals[-1]}' ;;"
        else:
            places.append("                *) COMPREPLY=() ;;")
        positions = "\n".join(places)
        cases.append(
            f"        {spec.name})\n"
            f'            case "$prev" in\n{values}\n            esac\n'
            f'            if [[ "$cur" == -* ]]; then\n'
            f'                COMPREPLY=($(compgen -W "{options}" -- "$cur"))\n'
            f"                return\n"
            f"            fi\n"
            f'            _printkit_position "{" ".join(sorted(spec.valued))}"\n'
            f'            case "$n" in\n{positions}\n            esac\n'
            f"            ;;"
        )
    body = "\n".join(cases)
    return f"""{_BASH_HELPERS}
_printkit() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" command="" at=0 n=0 i
    if [[ "$prev" == "=" ]] && ((COMP_CWORD > 1)); then prev="${{COMP_WORDS[COMP_CWORD-2]}}"; fi
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${{COMP_WORDS[i]}}" in -*) ;; *) command="${{COMP_WORDS[i]}}"; at=$i; break ;; esac
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


_FISH_HELPERS = """
# true when the word being typed is the command's positional number $2 (from 0; $3 = more: or any after it)
function __printkit_at --argument-names command position more valued
    set -l tokens (commandline -opc)
    set -l at 0
    set -l seen 0
    set -l skip 0
    for token in $tokens[2..-1]
        if test $skip = 1
            set skip 0
        else if test $at = 0
            string match -q -- '-*' $token; and continue
            test $token = $command; or return 1
            set at 1
        else if string match -q -- '--*=*' $token
        else if contains -- $token (string split ' ' -- $valued)
            set skip 1
        else if not string match -q -- '-*' $token
            set seen (math $seen + 1)
        end
    end
    test $at = 1; or return 1
    if test "$more" = more
        test $seen -ge $position
    else
        test $seen -eq $position
    end
end
"""


def _fish_offer(kind: str) -> str:
    """The arguments of `complete` that offer a value of this kind."""
    if kind.startswith("words:"):
        return f"-x -a {_fish_quote(kind[6:])}"
    if kind == "games":
        return f"-x -a '({GAMES}) (__fish_complete_directories)'"
    if kind == "dirs":
        return "-x -a '(__fish_complete_directories)'"
    if kind == "files":
        return "-r -F"
    return "-x"


def _fish(all_specs: list[Spec]) -> str:
    names = " ".join(s.name for s in all_specs)
    lines = [
        "# printkit completion for fish (printkit completion fish)",
        _FISH_HELPERS,
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
        for option, kind in sorted(spec.valued.items()):
            if option.startswith("--"):
                described = _fish_quote(spec.helps.get(option, ""))
                lines.append(f"complete -c printkit {when} -l {option[2:]} {_fish_offer(kind)} -d {described}")
        for option in sorted(o for o in spec.flags if o.startswith("--")):
            lines.append(f"complete -c printkit {when} -l {option[2:]} -d {_fish_quote(spec.helps.get(option, ''))}")
        valued = " ".join(sorted(spec.valued))
        for i, kind in enumerate(spec.positionals):
            more = "more" if spec.repeats and i == len(spec.positionals) - 1 else "one"
            at = f"-n '__printkit_at {spec.name} {i} {more} \"{valued}\"'"
            lines.append(f"complete -c printkit {at} {_fish_offer(kind)}")
    return "\n".join(lines) + "\n"
