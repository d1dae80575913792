"""Worked examples in the booklets: each replayed through the engine reaches the result its booklet states."""

from __future__ import annotations

import base64
import re
import shutil
from pathlib import Path

import pytest

from engine import registry
from printkit.core.errors import DataError
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import PrintSettings
from printkit.docs import booklet, examples, rulesbook

ROOT = Path(__file__).resolve().parent.parent
SLUGS = ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"]
PER_METRE_300_PPI = round(300 / 0.0254)


def _play(game: Game, example: examples.Example) -> list[str]:
    """The engine's narration of an example's shown steps, played here from its words alone."""
    state = registry.build(game).new_initial_state()
    said: list[str] = []
    for step in example.before + example.steps:
        if step is example.steps[0]:
            state.narration = said
        chance = state.is_chance_node()
        actions = [a for a, _ in state.chance_outcomes()] if chance else list(state.legal_actions())
        (action,) = [a for a in actions if state.action_to_string(a) == step.words]
        state.apply_action(action)
    return said


def _plain(markdown: str) -> str:
    return " ".join(markdown.replace("\\", "").split())


@pytest.mark.parametrize("slug", SLUGS)
def test_every_example_replays_to_the_result_its_booklet_states(games: dict[str, Game], slug: str) -> None:
    game = games[slug]
    script = examples.load_examples(game)
    assert script.examples, f"{slug} has no worked example"
    seats = examples.seat_names(game, script.seats)
    words = examples.Words(game, seats)
    booklet_text = _plain(rulesbook.render_markdown(game)).casefold()  # a line may start with a capital there
    for example in script.examples:
        narration = [words(line) for line in _play(game, example)]
        for result in example.result:
            said = [line for line in narration if result in line]
            assert said, (example.id, result, narration)
            # the booklet states that result, in the engine's own words
            assert _plain(said[0]).casefold() in booklet_text, (example.id, said[0])
        assert f'example("{example.id}")' in rulesbook.source(game) or f'day_example("{example.id}")' in (
            rulesbook.source(game)
        )


@pytest.mark.parametrize("slug", SLUGS)
def test_every_booklet_says_who_goes_first_and_shows_the_setup(games: dict[str, Game], slug: str) -> None:
    markdown = rulesbook.render_markdown(games[slug])
    setup = markdown.split("# Setup", 1)[1].split("\n# ", 1)[0]
    assert "**Who goes first:**" in setup
    assert "](diagram:setup)" in setup
    assert "# Glossary" in markdown and "# Assumptions" in markdown


def test_the_damage_stated_follows_the_rule_values(tmp_path: Path) -> None:
    """A changed damage rule changes what the example says, through the replay: no number is typed in the text."""
    folder = tmp_path / "soldier-battler"
    shutil.copytree(ROOT / "cards" / "soldier-battler", folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    assert "{id: advantage_damage, value: 40," in text
    game_yaml.write_text(text.replace("{id: advantage_damage, value: 40,", "{id: advantage_damage, value: 60,"))
    script = folder / "examples.yaml"
    script.write_text(
        script.read_text().replace("Swordsman deals 40 damage: Blue's Axeman has 40 HP left", "Swordsman deals 60")
    )
    markdown = _plain(rulesbook.render_markdown(load_game(folder)))
    assert "Swordsman deals 60 damage: Blue's Axeman has 20 HP left" in markdown
    assert "Sword beats axe: 60." in markdown


def test_a_step_that_is_not_legal_is_one_line_at_its_place(tmp_path: Path) -> None:
    folder = tmp_path / "battle-line"
    shutil.copytree(ROOT / "cards" / "battle-line", folder)
    script = folder / "examples.yaml"
    lines = script.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "plays B8 at flag 3" in line)
    lines[at] = lines[at].replace("B8", "B7")
    script.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError) as caught:
        rulesbook.render_markdown(load_game(folder))
    (line,) = caught.value.lines()
    assert re.match(rf".*examples\.yaml:{at + 1}:\d+: 'plays B7 at flag 3' is not legal now \(seat 1 to act: ", line)


def test_a_result_the_replay_does_not_reach_stops_the_build(tmp_path: Path) -> None:
    folder = tmp_path / "torah-timeline"
    shutil.copytree(ROOT / "cards" / "torah-timeline", folder)
    script = folder / "examples.yaml"
    script.write_text(script.read_text().replace("tokens: Ben 1 → 4", "tokens: Ben 1 → 5"))
    with pytest.raises(DataError, match=r"examples\.yaml:\d+:\d+: example challenge: the steps never say"):
        rulesbook.render_markdown(load_game(folder))


def test_the_pictures_print_at_300_ppi(games: dict[str, Game]) -> None:
    game = games["time-line-battle"]
    diagrams = booklet.Diagrams(game, PrintSettings())
    html = booklet.html(game, "a5", diagrams)
    for name in ("setup", "example-a-day"):
        png = diagrams(name)
        assert png is not None
        at = png.find(b"pHYs")
        assert int.from_bytes(png[at + 4 : at + 8], "big") == PER_METRE_300_PPI
        width_mm = int.from_bytes(png[16:20], "big") / PER_METRE_300_PPI * 1000
        assert 40 < width_mm <= 120.5  # within an A5 page's text width, so shown at its own size or less
        uri = "data:image/png;base64," + base64.b64encode(png).decode()
        shown = re.search(rf'src="{re.escape(uri)}" alt="[^"]*" style="width: ([0-9.]+)mm"', html)
        assert shown and float(shown.group(1)) <= width_mm  # never wider than its pixels at 300 ppi


@pytest.mark.parametrize("slug", SLUGS)
def test_a_step_tells_what_came_with_it_before_its_note(games: dict[str, Game], slug: str) -> None:
    """A draw told with the move before it ("draws Time Flux (Matter Disrupters)") comes before that step's note,
    never after it, where it would read as part of the note."""
    markdown = rulesbook.render_markdown(games[slug])
    steps = [line for line in markdown.splitlines() if re.match(r"\s*\d+\. ", line)]
    after_note = [line for line in steps if re.search(r"\*[^*]+\* \(", line)]
    assert not after_note, after_note


def test_a_formation_names_its_cards_a_comma_apart(games: dict[str, Game]) -> None:
    """The engine lists a formation's cards by id, a space apart; the booklet names each card and separates them."""
    game = games["battle-line"]
    words = examples.Words(game, ["Ada", "Ben"])
    troops = [c for c in game.cards if c.id != c.name][:3]
    leader = next(c for c in game.cards if c.kind == "tactics")
    listed = words(
        f"seat 0 claims flag 5: a Wedge of 27 ({leader.name} as {troops[0].id} {troops[1].id} {troops[2].id})"
    )
    assert listed == (
        f"Ada claims flag 5: a Wedge of 27 ({leader.name} as {troops[0].name}, {troops[1].name}, {troops[2].name})"
    )
    text = _plain(rulesbook.render_markdown(game))
    names = {c.name for c in game.cards}
    formations = re.findall(r"of \d+ \(([^)]*)\)", text)
    assert formations, "the Battle Line booklet's example names no formation"
    for formation in formations:
        for item in formation.split(", "):
            assert item.split(" as ")[-1] in names, (formation, item)
