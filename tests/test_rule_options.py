"""Rule options as players read them: the booklet states each filled gap in its player_text, for the value set."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.cli import main
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.docs import rulesbook

OPTIONS = """rules:
  - {id: hand_size, value: 5, origin: seed, description: Cards each player holds.}
  - {id: reach, value: near, choices: [near, far], origin: reconstructed, description: Reach.,
     player_text: {near: "Strike the nearest foe.", far: "Strike any foe in sight."}}
  - {id: strike_back, value: false, origin: reconstructed, description: Strike back.,
     player_text: {"true": "A struck unit strikes back.", "false": "A struck unit does not strike back."}}
  - {id: turns, value: 30, origin: reconstructed, min: 1, description: Turn cap.,
     player_text: "The game ends after {value} turns."}
  - {id: tokens, value: 2, origin: reconstructed, description: Two tokens a player.}
"""


@pytest.fixture
def game_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Options Game", "-q"]) == 0
    path = tmp_path / "cards" / "options-game" / "game.yaml"
    text = path.read_text()
    start = text.index("rules:")
    end = text.index("components:")
    path.write_text(text[:start] + OPTIONS + "\n" + text[end:])
    return path


def _assumptions(path: Path) -> str:
    markdown = rulesbook.render_markdown(load_game(path.parent)).split("# Assumptions")[1]
    return markdown.replace("\\", "")  # the Markdown's escapes: the text as printed


def test_the_booklet_states_each_option_for_the_value_set(game_yaml: Path) -> None:
    text = _assumptions(game_yaml)
    assert "Strike the nearest foe." in text and "Strike any foe" not in text
    assert "A struck unit does not strike back." in text and "strikes back." not in text
    assert "The game ends after 30 turns." in text and "{value}" not in text
    assert "Two tokens a player." in text  # no player_text: its description
    game_yaml.write_text(
        game_yaml.read_text()
        .replace("value: near,", "value: far,")
        .replace("value: false,", "value: true,")
        .replace("value: 30,", "value: 12,")
    )
    text = _assumptions(game_yaml)
    assert "Strike any foe in sight." in text and "nearest" not in text
    assert "A struck unit strikes back." in text and "does not" not in text
    assert "The game ends after 12 turns." in text


def test_an_option_without_player_text_is_a_warning_at_its_line(
    game_yaml: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", "options-game"]) == 0
    err = capsys.readouterr().err.splitlines()
    worded = [line for line in err if "player_text" in line]
    assert worded == [
        "warning: cards/options-game/game.yaml:15:5: rule option tokens is reconstructed but has no player_text: "
        "the booklet states it to players in its description's words [printkit help game-yaml]"
    ]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"The game ends after {value} turns."', '"The game ends after {turns} turns."', "expected only {value}"),
        ('far: "Strike any foe in sight."', 'wide: "Strike any foe in sight."', "none for 'far'"),
        ('"true": "A struck unit strikes back.", ', '"true": "x", "maybe": "y", ', "'maybe' is not a choice"),
        ('"The game ends after {value} turns."', '{"30": "The game ends after 30 turns."}', "expected one sentence"),
    ],
)
def test_a_player_text_that_cannot_follow_its_option_is_one_line(
    game_yaml: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, message: str
) -> None:
    game_yaml.write_text(game_yaml.read_text().replace(old, new, 1))
    assert main(["validate", "options-game"]) == 2
    err = capsys.readouterr().err.splitlines()
    problems = [line for line in err if not line.startswith("warning:")]
    assert len(problems) == 1, err
    assert problems[0].startswith("cards/options-game/game.yaml:") and ".player_text" in problems[0]
    assert message in problems[0]


@pytest.mark.parametrize("slug", ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"])
def test_every_bundled_gap_is_worded_for_players(games: dict[str, Game], slug: str) -> None:
    for option in games[slug].info.rules:
        if option.origin != "reconstructed":
            continue
        assert option.player_text, option.id
        worded = rulesbook.player_text(option)
        assert worded != option.description and "{" not in worded, option.id
        assert str(option.value) in worded or "{value}" not in str(option.player_text), option.id


@pytest.mark.parametrize("slug", ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"])
def test_every_bundled_glossary_term_is_a_word_the_rules_use(games: dict[str, Game], slug: str) -> None:
    game = games[slug]
    markdown = rulesbook.render_markdown(game).replace("\\", "")
    assert "# Glossary" in markdown
    before, _, after = markdown.partition("# Glossary")
    rest = before + after.split("\n# ", 1)[-1]  # the rules outside the glossary itself
    assert len(game.info.glossary) >= 6
    for entry in game.info.glossary:
        assert f"**{entry.term}**: {game.phrase(entry.means)}" in after
        assert entry.term.casefold().rstrip("s") in rest.casefold(), entry.term


def test_a_glossary_entry_names_only_rule_options_the_game_has(
    game_yaml: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_yaml.write_text(
        game_yaml.read_text().replace(
            "rules:\n", "glossary:\n  - {term: Hand, means: 'The {hand_sise} cards you hold.'}\nrules:\n", 1
        )
    )
    assert main(["validate", "options-game"]) == 2
    assert "glossary[0].means: no rule option 'hand_sise' (did you mean 'hand_size'?)" in capsys.readouterr().err
    game_yaml.write_text(game_yaml.read_text().replace("{hand_sise}", "{hand_size}"))
    assert rulesbook.Helpers(load_game(game_yaml.parent)).glossary() == "- **Hand**: The 5 cards you hold\\."


@pytest.mark.parametrize("slug", ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"])
def test_the_booklets_assumptions_are_words_not_engine_ids(games: dict[str, Game], slug: str) -> None:
    """Read from the printed booklet: its Assumptions state each rule chosen where the source is silent, in the
    words players read, and no option's id ("(rule option deployment_order)" was printed 43 times in all)."""
    import pypdfium2 as pdfium

    from printkit.data.settings import PrintSettings
    from printkit.docs import booklet

    game = games[slug]
    pdf = pdfium.PdfDocument(booklet.build(game, "a5", booklet.Diagrams(game, PrintSettings())))
    text = " ".join(" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf)))
    chosen = [r for r in game.info.rules if r.origin == "reconstructed"]
    assert chosen
    for option in chosen:
        words = rulesbook.player_text(option).split()
        assert " ".join(words[:6]) in text, option.id  # its first words, however the lines break
    assert "rule option" not in text
    assert not [option.id for option in game.info.rules if option.id in text and "_" in option.id]
