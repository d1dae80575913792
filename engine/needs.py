"""What each engine needs from a game's data, declared as a typed model and checked against a loaded game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import records
from engine.cards.battle_line import Tactics, Troop
from engine.cards.time_line import TimeCard
from engine.cards.time_line_battle import Character
from printkit.core.errors import display_path, safe
from printkit.data.game import GAME_FILE, Game

Scalar = int | float | str | bool
Bound = int | str  # a number, or the id of another rule option whose value is the bound


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option an engine plays by: its type, the bounds its mechanism holds, the values it knows.

    choices, when given, are the only values the engine plays: a reading the engine has one way of playing
    names that one value, so a designer who changes it is told rather than shown unchanged games.
    """

    id: str
    type: type = int
    low: Bound | None = None
    high: Bound | None = None
    choices: tuple[Scalar, ...] = ()


# an engine's own check of the data, beyond single options: each problem one file:line:column line
Check = Callable[[Game], list[str]]


@dataclass(frozen=True, slots=True)
class Needs:
    """Everything one engine reads from the data: what `printkit validate` holds the game to."""

    engine: str
    options: tuple[Option, ...]
    card_kinds: tuple[str, ...] = ()  # each needs at least one card in the game
    formations: tuple[str, ...] = ()  # formation ids the engine ranks: the game lists exactly these
    checks: tuple[Check, ...] = ()

    def assumptions(self) -> set[str]:
        """The rule options the engine plays by: a reconstructed one among them is an assumption the booklet prints."""
        return {o.id for o in self.options}


def _value(game: Game, rule_id: str) -> Scalar | None:
    return next((r.value for r in game.info.rules if r.id == rule_id), None)


def _rules_place(game: Game) -> str:
    line, column = game.rules_at
    return f"{display_path(game.folder / GAME_FILE)}:{line}:{column}"


def _type_name(kind: type) -> str:
    return {int: "a whole number", float: "a number", str: "a word", bool: "true or false"}.get(kind, kind.__name__)


def _said(value: Scalar) -> str:
    """A value as the YAML writes it: true and false in lower case."""
    return str(value).lower() if isinstance(value, bool) else safe(str(value))


def _bound(game: Game, bound: Bound) -> tuple[float, str] | None:
    """A bound's number and how to say it: a number as itself, another option by its id and value."""
    if isinstance(bound, int):
        return bound, str(bound)
    value = _value(game, bound)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None  # that option's own check says what is wrong with it
    return value, f"{bound} ({value})"


def option_problems(game: Game, needs: Needs) -> list[str]:
    """Each option the engine needs that the game lacks, or gives of the wrong type or out of its bounds."""
    out = []
    for need in needs.options:
        place = game.place("rule", need.id)
        value = _value(game, need.id)
        if value is None:
            where = _rules_place(game)
            out.append(f"{where}: rules: no rule option {need.id!r}, which the {needs.engine} engine needs")
            continue
        ok_type = isinstance(value, need.type) and (need.type is bool or not isinstance(value, bool))
        if need.type is float and isinstance(value, int) and not isinstance(value, bool):
            ok_type = True
        if not ok_type:
            out.append(
                f"{place}: rules: {need.id}: expected {_type_name(need.type)} for the {needs.engine} engine, "
                f"found {safe(repr(value))}"
            )
            continue
        if need.choices and value not in need.choices:
            known = ", ".join(_said(c) for c in need.choices)
            out.append(f"{place}: rules: {need.id}: the {needs.engine} engine plays {known} only, found {_said(value)}")
            continue
        if not isinstance(value, int | float) or isinstance(value, bool):
            continue
        for bound, below in ((need.low, True), (need.high, False)):
            if bound is None or (said := _bound(game, bound)) is None:
                continue
            limit, words = said
            if (value < limit) if below else (value > limit):
                side = "at least" if below else "at most"
                out.append(f"{place}: rules: {need.id}: the {needs.engine} engine needs {side} {words}, found {value}")
    return out


def problems(game: Game, needs: Needs) -> list[str]:
    """Everything the engine needs from this game's data and does not find, one file:line:column line each."""
    out = option_problems(game, needs)
    at = game.place("engine", "engine")
    kinds = {c.kind for c in game.cards}
    for kind in needs.card_kinds:
        if kind not in kinds:
            out.append(f"{at}: the {needs.engine} engine plays with {kind} cards: the game has none")
    if needs.formations:
        found = [f.id for f in game.info.formations]
        if sorted(found) != sorted(needs.formations):
            unknown = [f for f in found if f not in needs.formations]
            where = game.places.get(("formation", unknown[0])) if unknown else None
            where = where or game.places.get(("game", "formations")) or at
            out.append(
                f"{where}: formations: the {needs.engine} engine ranks {', '.join(needs.formations)}; "
                f"found {safe(', '.join(found)) or 'none'}"
            )
    if not out:  # an engine's own checks read the options, which are known good by now
        for check in needs.checks:
            out += check(game)
    return out


# --- each engine's needs ------------------------------------------------------------------------------------

MAX_FLAGS = 50  # a line the table can hold; the engine keeps every flag's sides in memory
MAX_FORMATION = 10  # cards in a formation: the proof's search grows with it


def _battle_line_flags(game: Game) -> list[str]:
    """The printed flags follow the flags option: a 10-flag variant that printed 9 tokens and a 9-space strip
    played right and printed wrong, unseen. The engine's flags are the token `flag` and the spaces of `flag-strip`."""
    flags = _value(game, "flags")
    if isinstance(flags, bool) or not isinstance(flags, int):
        return []  # the option's own check says what is wrong with it
    out = []
    for part in game.info.components:
        if part.id == "flag" and part.count != flags:
            printed, what = part.count, "tokens"
        elif part.id == "flag-strip" and part.board and part.board.sections and part.board.sections[0].cols != flags:
            printed, what = part.board.sections[0].cols, "spaces on the strip"
        else:
            continue
        out.append(
            f"{game.place('component', part.id)}: components: {part.id}: prints {printed} {what}, "
            f"but rules: flags is {flags}; print as many as the line has flags"
        )
    return out


def _battle_line_cards(game: Game) -> list[str]:
    """Enough troops to deal both hands; every wild Tactics card with values to stand for; Mud within bounds."""
    out = []
    troops = sum(1 for c in game.cards if c.kind == "troop")
    hand = _value(game, "hand_size")
    if isinstance(hand, int) and troops < 2 * hand:
        out.append(
            f"{game.place('rule', 'hand_size')}: rules: hand_size: the battle-line engine deals both hands from the "
            f"troops: needs at least {2 * hand} troop cards, found {troops}"
        )
    # the engine numbers troops colour by colour, value by value: one of each colour at each value
    values = sorted({c.value for c in records(game, Troop)})
    named = {v.value for v in game.info.value_names}
    seen: dict[tuple[str, int], str] = {}
    for card in records(game, Troop):
        key = (card.colour, card.value)
        if key in seen:
            out.append(
                f"{game.place('card', card.id)}: the battle-line engine plays one troop of each colour and "
                f"value: {safe(card.colour)} {card.value} is also {safe(seen[key])}"
            )
        seen[key] = card.id
        if named and card.value not in named:  # its card would print no name for its value
            out.append(f"{field_at(game, card.id, 'value')}: value: no value name for {card.value} in value_names")
    missing = [f"{c.id} {v}" for c in game.info.colours for v in values if (c.id, v) not in seen]
    if missing and seen:
        shown = ", ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4 else "")
        out.append(
            f"{game.place('engine', 'engine')}: the battle-line engine plays one troop of each colour at each "
            f"value the troops have: missing {safe(shown)}"
        )
    for tactics in records(game, Tactics):
        effect = tactics.effect
        if effect.kind in ("fixed_value", "value_choice") and not effect.values:
            where = game.place("card", tactics.id)
            out.append(f"{where}: effect: {effect.kind} needs values: the troop values it stands for")
        if effect.kind == "mud" and effect.formation_size is not None and effect.formation_size > MAX_FORMATION:
            out.append(
                f"{game.place('card', tactics.id)}: effect: formation_size: the battle-line engine needs at most "
                f"{MAX_FORMATION}, found {effect.formation_size}"
            )
    return out


def field_at(game: Game, card_id: str, field: str) -> str:
    """Where a card's field is written, file:line:column (or its sheet's cell); the card's place when unknown."""
    place = game.place("card", card_id)
    return game.fields_at.get(place, {}).get(field, (place, ""))[0]


def _orders(game: Game) -> list[str]:
    """Front to Rear is one line: each Character its own Order (a game that declares order unique: true is
    refused as it loads; this holds the engine to it whatever the declaration says)."""
    out = []
    holder: dict[int, str] = {}
    for char in records(game, Character):
        first = holder.setdefault(char.order, char.name)
        if first != char.name:
            out.append(
                f"{field_at(game, char.id, 'order')}: order: {char.order} is already {safe(first)}'s: the "
                "time-line-battle engine needs each Character to have its own"
            )
    return out


def _users(game: Game) -> list[str]:
    """Who may play a Time Line card: a unit type of the card's own side, or one of the game's user groups."""
    out = []
    groups = set(game.info.user_groups)
    for card in records(game, TimeCard):
        units = {c.id for c in game.info.components if c.unit and c.faction == card.faction}
        for user in card.users:
            if user not in units | groups:
                known = ", ".join(sorted(units | groups))
                out.append(
                    f"{field_at(game, card.id, 'users')}: users: {safe(user)} is no unit type of the "
                    f"{safe(card.faction)} side nor a user group (expected one of: {safe(known)})"
                )
    return out


def _soldier_board(game: Game) -> list[str]:
    """A move is numbered by its two spaces: the board holds at most MAX_SPACES of them."""
    rows, cols = _value(game, "board_rows"), _value(game, "board_columns")
    if isinstance(rows, int) and isinstance(cols, int) and rows * cols > 100:
        return [
            f"{game.place('rule', 'board_columns')}: rules: board_rows x board_columns: the soldier-battler engine "
            f"numbers moves by space: needs at most 100 spaces, found {rows * cols}"
        ]
    return []


def _names_one(rule_id: str, engine: str, what: str) -> Check:
    """An option whose value is the id of one of the game's factions or Eras (what: the game.yaml list)."""

    def check(game: Game) -> list[str]:
        value = _value(game, rule_id)
        ids = [str(item.id) for item in getattr(game.info, what)]
        if value not in ids:
            return [
                f"{game.place('rule', rule_id)}: rules: {rule_id}: the {engine} engine needs one of the game's "
                f"{what}: {safe(', '.join(ids)) or 'none'}; found {safe(str(value))}"
            ]
        return []

    return check


BATTLE_LINE = Needs(
    "battle-line",
    (
        Option("hand_size", low=1),
        Option("flags", low=1, high=MAX_FLAGS),
        Option("formation_size", low=1, high=MAX_FORMATION),
        Option("mud_formation_size", low=1, high=MAX_FORMATION),
        Option("breakthrough", low=1, high="flags"),
        Option("envelopment", low=1, high="flags"),
        Option("leaders_per_player", low=0),
        Option("tactics_lead", low=0),
        Option("claim_timing", str, choices=("start_of_turn", "after_play")),
        Option("proof_ignores_unplayed_tactics", bool, choices=(True,)),
        Option("mud_removed_discard", str, choices=("strongest_remaining",)),
        Option("stalemate_passes", low=1),
        Option("turn_cap", low=1),
        Option("claims_automatic", bool, choices=(True,)),
    ),
    card_kinds=("troop",),
    formations=("wedge", "phalanx", "battalion", "skirmish", "host"),  # strongest first, as the engine ranks them
    checks=(_battle_line_cards, _battle_line_flags),
)

SOLDIER_BATTLER = Needs(
    "soldier-battler",
    (
        Option("hand_start", low=0),
        Option("draw_per_turn", low=0),
        Option("plays_per_turn", choices=(1,)),
        Option("board_rows", low=2),
        Option("board_columns", low=1),
        Option("first_player", str),
        Option("damage", low=1),
        Option("advantage_damage", low=0),
        Option("melee_reach", str, choices=("nearest_in_column", "opposite_row_only")),
        Option("counter_damage", bool, choices=(False,)),
        Option("hand_limit", choices=(0,)),
        Option("enter_enemy_row", bool),
        Option("stalemate", str, choices=("no_progress", "idle_turns")),
        Option("idle_turns_to_stalemate", low=1),
        Option("turn_cap", low=1),
    ),
    card_kinds=("soldier",),
    checks=(_soldier_board, _names_one("first_player", "soldier-battler", "factions")),
)

TORAH_TIMELINE = Needs(
    "torah-timeline",
    (
        Option("hand_start", low=0),
        Option("actions_per_turn", low=1),
        Option("beit_midrash_slots", low=1),
        Option("income_per_sage", low=0),
        Option("timeline_cost", low=0),
        Option("token_cap", low=0),
        Option("hand_limit", low=1),
        Option("first_player", str, choices=("random",)),
        Option("action_cap", low=1),
    ),
    card_kinds=("sage", "tanach"),
)

TIME_LINE_BATTLE = Needs(
    "time-line-battle",
    (
        Option("timelines", low=1),
        Option("hand_size", low=1),
        Option("cycle_to_bottom", low=0),
        Option("deploy_first_timeline", low=0),
        Option("deploy_later_timeline", low=0),
        Option("deploy_days", low=1),
        Option("min_days", low=1),
        Option("vp_per_survivor", low=0),
        Option("deployment_order", str, choices=("alternate",)),
        Option("decision_order", str, choices=("lock,sacrifice,enchant,target",)),
        Option("quiet_days_to_end", low=1),
        Option("wipeout_ends_timeline", bool),
        Option("day_cap", low=1),
        Option("protector_timing", str, choices=("after_total",)),
        Option("enchanter_timing", str, choices=("before_reductions",)),
        Option("necromancer_count", str, choices=("at_total",)),
        Option("survived_day_meaning", str, choices=("earlier_day_this_timeline",)),
        Option("locked_does_nothing", bool, choices=(True,)),
        Option("revive_condition", str, choices=("reviver_survived", "revived_survived")),
        Option("revive_health", str, choices=("full",)),
        Option("tie_is_draw", bool, choices=(True,)),
    ),
    card_kinds=("character",),
    checks=(_orders,),
)

TIME_LINE = Needs(
    "time-line",
    (
        Option("cards_per_turn", low=0),
        Option("success_roll", low=1, high=6),
        Option("control_bonus_units", str),
        Option("control_bonus", low=0),
        Option("prehistory_rolls_atlantean", low=0),
        Option("extra_rolls_faction", str),
        Option("extra_rolls_era", str),
        Option("combat_disadvantaged_loses_max", low=1),
        Option("combat_tie_split", low=1),
        Option("escape_penalty_in_combat", low=0),
        Option("hand_start", choices=(0,)),
        Option("hand_limit", choices=(0,)),
        Option("home_eras_count", bool, choices=(True,)),
        Option("control_change", str, choices=("last_success",)),
        Option("tie_loser_low", str, choices=("non_active",)),
        Option("combat_only_active", bool, choices=(True,)),
        Option("card_in_named_phase", bool, choices=(True,)),
        Option("exhausted_supply_gains_nothing", bool, choices=(True,)),
        Option("turn_cap", low=1),
        Option("home_controlled_at_start", bool),
        Option("general_cards_in_travel", bool, choices=(True,)),
        Option("effects_last_a_round", bool, choices=(True,)),
        Option("one_roll_card", low=0),
        Option("any_roll_either_player", bool, choices=(True,)),
        Option("control_enemy_unit", str, choices=("this_turn", "move_it")),
        Option("escape_goes_home_ward", str, choices=("player_choice",)),
        Option("combat_round_cap", low=1),
        Option("reshuffle_in_random_factors", bool, choices=(True,)),
        Option("played_card_not_retaken", bool, choices=(True,)),
    ),
    card_kinds=("timeline",),
    checks=(
        _names_one("extra_rolls_faction", "time-line", "factions"),
        _names_one("extra_rolls_era", "time-line", "eras"),
        _users,
    ),
)

# by the name a game.yaml gives as its engine:
DECLARED: dict[str, Needs] = {
    n.engine: n for n in (BATTLE_LINE, SOLDIER_BATTLER, TORAH_TIMELINE, TIME_LINE_BATTLE, TIME_LINE)
}
