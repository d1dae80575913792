"""The game-design metrics: each computed as the README defines it, on games made up here and on played ones."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine import ladder, metrics, simulate
from engine.metrics import Tension, tension
from printkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_lead_story_of_a_comeback() -> None:
    # the first seat leads, falls behind, then leads for good from the third reading
    told = tension([1.0, -1.0, 2.0, 3.0], winner=0)
    assert told.lead_changes == 2
    assert told.trailing == pytest.approx(1 / 4)
    assert told.drama == pytest.approx(1 / 3)  # one behind, where the widest gap was three
    assert told.decided_at == pytest.approx(2 / 4)


def test_level_positions_change_no_lead_and_a_draw_has_no_winner_to_follow() -> None:
    assert tension([1.0, 0.0, 1.0, 0.0], winner=0).lead_changes == 0
    assert tension([-2.0, -1.0], winner=1) == Tension(0, 0.0, 0.0, 0.0)  # led from the start: decided at once
    assert tension([1.0, -1.0], winner=None) == Tension(1, None, None, None)


@dataclass
class _Game:
    """A played game as the metrics read it."""

    won_by: int | None
    end: str = "normal"
    first: int = 0
    length: int = 10
    decisions: int = 5
    agents: list[str] = field(default_factory=lambda: ["greedy", "random"])
    actions: list[int] = field(default_factory=lambda: [0] * 12)
    branching: dict[int, int] = field(default_factory=lambda: {1: 5, 3: 5})
    tension: Tension | None = None

    def winner(self) -> int | None:
        return self.won_by


def test_measures_over_games() -> None:
    games = [
        _Game(0, tension=Tension(2, 0.5, 0.25, 0.75)),
        _Game(1, first=1),
        _Game(None, end="cap"),
        _Game(0, end="stalemate", length=30, branching={5: 10}),
    ]
    m = metrics.measure(games)
    assert (m["completion"], m["timeouts"], m["stalemates"], m["drawishness"]) == (0.5, 0.25, 0.25, 0.25)
    assert m["advantage_first"] == pytest.approx((3 + 0.5) / 4)  # the first mover won thrice, and one draw
    assert m["balance"] == pytest.approx(1 - (2 - 1) / 4)
    assert m["decision_moves"] == pytest.approx(20 / 60)
    # forced moves (one legal) are no decisions: 15 of 3 legal and 10 of 5 are
    assert m["branching"]["mean"] == pytest.approx((15 * 3 + 10 * 5) / 25)
    assert m["branching"]["forced"] == pytest.approx(15 / 40)
    assert m["duration"]["moves"]["mean"] == 15 and m["duration"]["actions"]["mean"] == 12
    assert (m["lead_read_in"], m["lead_changes"], m["decisiveness"]) == (1, 2, 0.75)
    assert sum(b["decisions"] for b in m["branching"]["distribution"]) == 25


def test_a_simulation_reports_the_metrics_for_every_pairing(tmp_path: Path) -> None:
    plan = simulate.Plan(ROOT / "cards" / "soldier-battler", ("greedy", "random"), 40, 3)
    records = simulate.run(plan)
    read = [r for r in records if r.tension is not None]
    assert len(read) == 40 // simulate.LEAD_SAMPLE
    assert all(sum(r.branching.values()) >= r.decisions for r in records)
    assert main(["simulate", "soldier-battler", "--games", "40", "--out", str(tmp_path), "--no-pdf", "-q"]) == 0
    results = json.loads((tmp_path / "soldier-battler" / "balance" / "results.json").read_text())
    summary = results["summary"]
    assert summary["metrics"]["games"] == 40
    assert set(summary["pairings"]) == {"random vs random"}
    assert "Game metrics" in (tmp_path / "soldier-battler" / "balance" / "report.html").read_text()


def test_the_skill_ladder_scores_each_rung_against_the_one_below() -> None:
    steps = ladder.climb(ROOT / "cards" / "soldier-battler", 6, 1, rungs=("random", "greedy", "mcts10"))
    assert [(s["stronger"], s["weaker"]) for s in steps] == [("greedy", "random"), ("mcts10", "greedy")]
    for step in steps:
        assert step["score"] == pytest.approx((step["wins"] + step["draws"] / 2) / step["games"])
        assert step["games"] in (6, 12, 24) and (step["verdict"] != "undecided" or step["games"] == 24)
        assert set(step["endings"]) == {"completion", "timeouts", "stalemates", "drawishness"}
        assert step["ci95"][0] <= step["score"] <= step["ci95"][1]


def test_balance_climbs_the_ladder_unless_the_games_are_too_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from printkit.cli import play

    argv = ["balance", "soldier-battler", "--games", "20", "--ladder", "2", "--workers", "1", "--out", str(tmp_path)]
    argv += ["--no-studies"]  # its studies play thousands of games: test_findings plays a small one
    assert main(argv) == 0
    results = json.loads((tmp_path / "soldier-battler" / "balance" / "results.json").read_text())
    for step in results["summary"]["ladder"]:  # 2 games, doubled while the rung's verdict is undecided, to 4 times
        assert step["games"] in (2, 4, 8) and (step["games"] == 8 or step["verdict"] != "undecided"), step
    assert "Skill depth" in (tmp_path / "soldier-battler" / "balance" / "report.html").read_text()
    monkeypatch.setattr(play, "LADDER_LONGEST", 1)  # every game too long for MCTS, unless asked
    assert main([a for a in argv if a not in ("--ladder", "2")]) == 0
    assert "soldier-battler: no skill ladder: its games run" in capsys.readouterr().err
    results = json.loads((tmp_path / "soldier-battler" / "balance" / "results.json").read_text())
    assert "ladder" not in results["summary"]
    assert main([*argv[:5], "-1"]) == 2


@pytest.mark.parametrize("slug", ["battle-line", "soldier-battler", "time-line-battle", "torah-timeline"])
def test_each_games_own_reading_of_a_played_card_agrees_with_trying_the_move(slug: str) -> None:
    import random

    from engine import registry
    from engine.api import State
    from printkit.data.loader import load_game

    game = registry.build(load_game(ROOT / "cards" / slug))
    plays = 0
    for seed in range(4):
        rng, state = random.Random(seed), game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            for action in state.legal_actions():
                found = State.played_card(state, action)  # the move tried on a copy
                assert state.played_card(action) == found, (slug, action, state.action_to_string(action))
                plays += found is not None
            state.apply_action(rng.choice(list(state.legal_actions())))
    assert plays > 100


@pytest.mark.parametrize(("agent", "games"), [("random", 20), ("mcts8", 4)])  # MCTS restricted in its search too
def test_a_restricted_agent_never_plays_its_card(agent: str, games: int) -> None:
    plan = simulate.Plan(ROOT / "cards" / "soldier-battler", (f"{agent}!swordsman", agent), games, 5)
    records = simulate.run(plan)
    held_back = [seat for r in records for seat, card in r.plays if card == "swordsman" and r.agents[seat] != agent]
    played = [seat for r in records for seat, card in r.plays if card == "swordsman"]
    assert held_back == [] and played  # the free agent still plays it


def test_card_values_and_their_verdicts(tmp_path: Path) -> None:
    from engine import cardvalue

    assert cardvalue.verdict(0.12, 0.3) == "dominant"
    assert cardvalue.verdict(-0.3, -0.01) == "harmful"
    assert cardvalue.verdict(-0.04, 0.04) == "dead"
    assert cardvalue.verdict(-0.1, 0.2) == "undecided"  # straddles every line: more games, or say so
    assert cardvalue.verdict(0.06, 0.09) == ""  # surely worth something, surely not dominant
    cards = {"swordsman": "Swordsman", "axeman": "Axeman"}
    found = cardvalue.values(ROOT / "cards" / "soldier-battler", cards, "random", 10, 1)
    assert {c["id"] for c in found} == set(cards)
    assert found[0]["value"] >= found[1]["value"]
    for card in found:
        assert card["ci95"][0] <= card["value"] <= card["ci95"][1]
    argv = ["balance", "soldier-battler", "--games", "10", "--ladder", "0", "--card-value", "4", "--out", str(tmp_path)]
    assert main(argv) == 0
    results = json.loads((tmp_path / "soldier-battler" / "balance" / "results.json").read_text())
    assert len(results["summary"]["card_values"]["cards"]) == 4  # the four soldier types
    assert "Card value by restricted play" in (tmp_path / "soldier-battler" / "balance" / "report.html").read_text()


def test_verdicts_hold_across_seeds_or_say_undecided(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose verdicts are known: the Lanterns starter with a Flare that wins the game on the spot. On three
    seeds, the Flare is dominant, greedy is the stronger rung, and no other card is called dominant, harmful or dead
    unless its interval says so (undecided otherwise), each verdict read from as many games as it took."""
    from engine import cardvalue, ladder

    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0 and main(["new", "Lanterns", "--starter", "play", "-q"]) == 0
    folder = tmp_path / "cards" / "lanterns"
    cards_yaml, game_yaml = folder / "cards.yaml", folder / "game.yaml"
    cards_yaml.write_text(cards_yaml.read_text().replace("effect: flare, amount: 2,", "effect: flare, amount: 9,"))
    game_yaml.write_text(game_yaml.read_text().replace("id: light_to_win, value: 15", "id: light_to_win, value: 9"))
    cards = {"flare": "Flare", "candle": "Candle", "gust": "Gust"}
    for seed in (1, 2, 3):
        found = {c["id"]: c for c in cardvalue.values(folder, cards, "random", 40, seed)}
        assert found["flare"]["verdict"] == "dominant", (seed, found["flare"])
        for card in found.values():
            low, high = card["ci95"]
            assert card["verdict"] == cardvalue.verdict(low, high)  # the verdict its interval gives, no other
            assert card["games"] in (40, 80, 160) and 40 * simulate.SETTLE_CAP == 160
            assert card["verdict"] != "undecided" or card["games"] == 160  # undecided only at the cap
        (step,) = ladder.climb(folder, 10, seed, rungs=("random", "greedy"))
        assert step["verdict"] == "stronger", (seed, step)


def test_the_summary_s_findings_come_from_the_games_its_tables_count(tmp_path: Path) -> None:
    argv = ["balance", "soldier-battler", "--games", "20", "--ladder", "0", "--card-value", "0", "--no-studies"]
    assert main([*argv, "--out", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "soldier-battler" / "balance" / "results.json").read_text())
    page = (tmp_path / "balance-summary.html").read_text()
    unfinished = {k: v["rate"] for k, v in results["summary"]["endings"].items() if k != "normal" and v["rate"] > 0.1}
    assert unfinished  # random play leaves Soldier Battler's games to its cap or a stalemate often
    for ending, rate in unfinished.items():  # once from a separate 5-game sample
        assert f"{100 * rate:.0f}% of 20 games ended by {ending}" in page
