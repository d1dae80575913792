"""Each game's expert: the agent its data names as playing it best, spelled in records as that agent, measured on
the ladder against MCTS 100, restricted in its search as in its play, and named by the report as what the verdicts
rest on."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from engine import agents, findings, ladder, simulate
from engine.api import DEFAULT_EXPERT
from printkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _soldiers(tmp_path: Path, expert: str | None) -> Path:
    """Soldier Battler, copied, with the expert named (or no expert line at all)."""
    folder = tmp_path / "soldier-battler"
    shutil.copytree(ROOT / "cards" / "soldier-battler", folder)
    game_yaml = folder / "game.yaml"
    lines = [line for line in game_yaml.read_text().splitlines() if not line.startswith("expert:")]
    if expert is not None:
        lines.append(f"expert: {expert}")
    game_yaml.write_text("\n".join(lines) + "\n")
    return folder


@pytest.mark.parametrize(
    ("name", "spelled"),
    [
        ("mcts100", "mcts100"),
        ("mcts100/0", "mcts100/0"),
        ("mcts100/8", "mcts100"),  # 8 random moves is MCTS's own depth: one agent, one name
        ("mcts", "mcts200"),
        ("mcts25/3!axeman", "mcts25/3!axeman"),
        ("greedy!axeman", "greedy!axeman"),
    ],
)
def test_an_agent_s_name_is_the_one_its_records_carry(name: str, spelled: str) -> None:
    assert agents.make(name).name == spelled


@pytest.mark.parametrize("name", ["mcts0", "mcts100/", "mcts100/x", "mcts/3", "mcts100/100", "expert", "mcts1!", "x"])
def test_a_bad_agent_name_is_refused_saying_what_is_expected(name: str) -> None:
    with pytest.raises(ValueError, match="expected"):
        agents.make(name)


def test_expert_stands_for_the_agent_the_game_names() -> None:
    assert agents.resolve("expert", "mcts400") == "mcts400"
    assert agents.resolve("expert!axeman", "mcts100/0") == "mcts100/0!axeman"
    assert agents.resolve("greedy", "mcts400") == "greedy"
    agents.check("expert!axeman")  # a name simulate's --agents takes before it knows the game
    with pytest.raises(ValueError, match="did you mean 'expert'"):
        agents.check("expret")


def test_a_plan_spells_expert_as_the_game_s_and_the_records_agree(tmp_path: Path) -> None:
    named = _soldiers(tmp_path / "a", "mcts7/0")
    plan = simulate.Plan(named, ("expert", "expert!axeman"), 2, 1)
    assert plan.agents == ("mcts7/0", "mcts7/0!axeman")
    assert {name for record in simulate.run(plan) for name in record.agents} == set(plan.agents)
    unnamed = _soldiers(tmp_path / "b", None)
    assert simulate.Plan(unnamed, ("expert", "random"), 2, 1).agents == (DEFAULT_EXPERT, "random")


def test_a_restricted_search_keeps_the_card_out_of_its_own_moves_only() -> None:
    from engine.api import State

    game = simulate.game_of(ROOT / "cards" / "soldier-battler")
    agent = agents.make("mcts5!swordsman")
    assert isinstance(agent, agents.MCTSAgent) and agent.banned == "swordsman"
    rng, state, checked = random.Random(3), game.new_initial_state(), 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        legal = list(state.legal_actions())
        cards = [State.played_card(state, a) for a in legal]  # the move tried on a copy
        mine = agent._moves(state, state.current_player())
        theirs = agent._moves(state, 1 - state.current_player())
        assert theirs == legal  # the other seat may play anything: the ban is this agent's alone
        if "swordsman" in cards and any(card != "swordsman" for card in cards):
            assert all(State.played_card(state, a) != "swordsman" for a in mine) and mine
            checked += 1
        elif "swordsman" in cards:
            assert mine == legal  # forced: the card is all there is to play
        state.apply_action(rng.choice(legal))
    assert checked > 0


def test_the_ladder_ends_with_the_expert_unless_it_is_the_rung_below(tmp_path: Path) -> None:
    folder = _soldiers(tmp_path, "greedy")
    (step,) = ladder.climb(folder, 4, 1, rungs=("random", "expert"))
    assert (step["stronger"], step["weaker"], step["expert"]) == ("greedy", "random", True)
    assert ladder.climb(folder, 4, 1, rungs=("greedy", "expert")) == []  # the expert is that rung: nothing to play
    assert ladder.RUNGS[-1] == agents.EXPERT


def _figures(score: float, low: float, high: float, valued: str | None) -> dict[str, object]:
    step = {"stronger": "mcts400", "weaker": "mcts100", "expert": True, "score": score, "ci95": [low, high]}
    figures: dict[str, object] = {"ladder": [step | {"verdict": "stronger"}]}
    if valued:
        figures["card_values"] = {"agent": valued, "cards": []}
    return figures


def test_the_report_says_which_agents_its_verdicts_rest_on() -> None:
    said = findings.resting(_figures(0.82, 0.65, 0.92, "mcts400"), ("mcts400", "mcts400"), "mcts400", True)
    assert said.startswith("Every verdict here rests on games between the game's expert, mcts400")
    assert "82%, interval 65-92%, against mcts100: stronger" in said
    said = findings.resting(_figures(0.82, 0.65, 0.92, "random"), ("random", "random"), "mcts400", True)
    assert "rest on games between random, not on the game's expert, mcts400" in said
    assert "--agents expert,expert" in said
    said = findings.resting({}, ("random", "greedy"), "mcts100", False)
    assert "random and greedy" in said and "stands in as expert (game.yaml names none)" in said
    said = findings.resting(_figures(0.5, 0.3, 0.7, "random"), ("mcts400", "mcts400"), "mcts400", True)
    assert "and the card values on random" in said  # the card values' own agent, when another


def test_balance_rests_every_verdict_on_the_expert_when_asked(tmp_path: Path) -> None:
    folder = _soldiers(tmp_path, "greedy")
    argv = ["balance", str(folder), "--games", "6", "--ladder", "2", "--card-value", "2", "--no-studies"]
    assert main([*argv, "--agents", "expert,expert", "--out", str(tmp_path / "out"), "-q"]) == 0
    report = tmp_path / "out" / "soldier-battler" / "balance"
    summary = json.loads((report / "results.json").read_text())["summary"]
    assert summary["explained"][0].startswith("Every verdict here rests on games between the game's expert, greedy")
    assert summary["card_values"]["agent"] == "greedy"
    assert set(summary["agents"]) == {"greedy"}
    steps = [(s["stronger"], s["expert"]) for s in summary["ladder"]]
    assert steps[-1] == ("greedy", True) and ("greedy", False) in steps  # greedy, and the expert above MCTS 100
    assert "greedy (the game's expert)" in (report / "report.html").read_text()


def test_a_bad_expert_is_refused_at_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _soldiers(tmp_path, "mcts0")
    line = (folder / "game.yaml").read_text().splitlines().index("expert: mcts0") + 1
    assert main(["validate", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"game.yaml:{line}:9: expert: expected random, greedy, mctsN" in err and "found 'mcts0'" in err
