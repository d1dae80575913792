"""The committed JSON Schemas equal the generated ones, and every YAML file points an editor at its schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from printkit.core import assets, project
from printkit.data import schema

ROOT = Path(__file__).resolve().parent.parent
# a game's examples.yaml (the booklet's scripts of play) has no schema: its loader checks it, step by step against
# the engine's legal actions, which no schema can express
YAML_FILES = sorted(p for p in (ROOT / "cards").glob("*/*.yaml") if p.name != "examples.yaml")
SCHEMAS = assets.schema_folder()


@pytest.mark.parametrize("name", sorted([*schema.SCHEMAS, schema.CARDS, schema.PLAY]))
def test_committed_schema_is_current(name: str) -> None:
    assert (SCHEMAS / name).read_text(encoding="utf-8") == schema.render(name), (
        "run `printkit schema` and commit the result"
    )


def test_each_bundled_game_s_card_schema_is_current() -> None:
    assert schema.stale(project.find(ROOT)) == [], "run `printkit schema` and commit the result"
    assert len(list(SCHEMAS.glob("cards-*.schema.json"))) == 5


@pytest.mark.parametrize("path", YAML_FILES, ids=[f"{p.parent.name}/{p.name}" for p in YAML_FILES])
def test_yaml_file_names_its_schema_and_meets_it(path: Path) -> None:
    own = {"game.yaml": "game.schema.json", "play.yaml": schema.PLAY}
    name = own.get(path.name, schema.game_schema_name(path.parent.name))
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == schema.modeline(name, path, project.find(ROOT)).rstrip("\n")
    ref = first.split("$schema=", 1)[1]
    assert (path.parent / ref).resolve() == (SCHEMAS / name).resolve()
    document = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), document)


def test_the_rules_schema_flags_a_misspelt_key_and_an_unknown_effect_the_reader_would_refuse() -> None:
    document = json.loads((SCHEMAS / schema.PLAY).read_text(encoding="utf-8"))
    rules = yaml.safe_load((ROOT / "cards" / "torah-timeline" / "play.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(rules, document)
    wrong = [
        {"heuristics": {"value": 1}},  # a part the rules language has not
        {"moves": [{"id": "pass", "ends_trun": True}]},
        {"moves": [{"id": "pass", "do": [{"gian": {"score": 1}}]}]},
        {"moves": [{"id": "pass", "do": [{"move": {"card": "card"}}]}]},  # move: needs to:
        {"zones": {"hand": {"visible": "mine"}}},
        {"end": [{"most": "my.score"}]},  # most: goes with when:
    ]
    for change in wrong:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(rules | change, document)


def test_schema_rejects_what_the_loader_rejects() -> None:
    document = json.loads((SCHEMAS / "cards.schema.json").read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"cards": [{"id": "a", "kind": "plain", "name": "A", "helth": 3}]}, document)
    battle_line = json.loads((SCHEMAS / schema.game_schema_name("battle-line")).read_text(encoding="utf-8"))
    jsonschema.validate(
        {"cards": [{"id": "a", "kind": "troop", "name": "A", "colour": "red", "value": 1}]}, battle_line
    )
    for wrong in ({"value": 0}, {"colour": "rad"}, {"valeu": 1}):
        card = {"id": "a", "kind": "troop", "name": "A", "colour": "red", "value": 1} | wrong
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"cards": [card]}, battle_line)
