"""Time Line's steps of a turn: one record type per kind of step, each with the fields that kind reads.

A turn is a queue of steps: chance (a draw, a peek, a roll), a seat's decision, or an automatic step the
engine runs by itself. Steps are shared between a state and its clones, so one is never changed once
queued, only replaced (dataclasses.replace). The records are not frozen: a frozen dataclass sets each
field through object.__setattr__, and a random game queues some twenty thousand steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar


class Kind(StrEnum):
    """What a step of the turn is: a chance draw or roll, a player's decision, or an automatic step (begin_, auto_)."""

    AFTER_ROLL = "after_roll"
    AUTO_AFTER_ROUND = "auto_after_round"
    AUTO_MEET = "auto_meet"
    AUTO_MEETING = "auto_meeting"
    AUTO_NEXT_ROUND = "auto_next_round"
    AUTO_ROUND = "auto_round"
    AVOID = "avoid"
    BEGIN_CHANGE = "begin_change"
    BEGIN_RECRUIT = "begin_recruit"
    BEGIN_SEEK = "begin_seek"
    CARD = "card"
    DISCARD = "discard"
    DRAW = "draw"
    ERA = "era"
    ESCAPE_TO = "escape_to"
    FORCE_CARD = "force_card"
    ORDER = "order"
    PEEK = "peek"
    RELOCATE = "relocate"
    ROLL = "roll"
    SHIFT = "shift"
    STACK = "stack"
    STANCE = "stance"
    SUMMON = "summon"
    TRAVEL = "travel"
    TUTOR = "tutor"


# the travel offer a move carries on to the next: the stacks' moves, the travel cards' uses (by the first
# card of each kind and users) and the cards' plays
Carried = tuple[list[int], dict[int, bool], list[int]]


@dataclass(slots=True, eq=False)
class Step:
    """A step of the turn; its kind says which table entry runs it."""

    kind: ClassVar[Kind]


@dataclass(slots=True, eq=False)
class Choice(Step):
    """A step a seat decides."""

    who: int  # the seat that decides


# -- chance ------------------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class FromDeck(Step):
    """A card that comes off a seat's deck, unseen until it does."""

    seat: int


@dataclass(slots=True, eq=False)
class Draw(FromDeck):
    """A card drawn from the seat's deck (the top ones it ordered first)."""

    kind: ClassVar[Kind] = Kind.DRAW
    reshuffle: bool = False  # this draw may turn the discard pile into a new deck


@dataclass(slots=True, eq=False)
class Peek(FromDeck):
    """See the Future: a card taken off the seat's deck, to be put back in an order of its choice."""

    kind: ClassVar[Kind] = Kind.PEEK


@dataclass(slots=True, eq=False)
class Roll(Step):
    """A die roll, and what it decides."""

    kind: ClassVar[Kind] = Kind.ROLL
    then: str  # change, period, faction, avoid, combat or vortex
    era: int = -1  # -1: a roll of no Era (a faction recruit)
    rounds: int = 0  # combat rolls made in this fight
    t: int = -1  # a unit type: the period troop recruited, the unit a Time Vortex may destroy
    side: int = -1  # whose units the roll is about; -1: the player whose turn it is
    way: str = ""  # avoid: hide or escape
    penalty: int = 0  # avoid: taken off an escape made mid-fight
    after: str = "fight"  # avoid: what an escape roll interrupts, the fight's start or a round
    need: int = 0  # vortex: the face that destroys
    offered: bool = False  # Probability Shift has been offered for this roll
    shift: int = 0  # what Probability Shift added to this roll


# -- the player's Time Travel --------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Travel(Step):
    """The player moves a stack, plays a travel card or ends the phase."""

    kind: ClassVar[Kind] = Kind.TRAVEL
    carried: Carried | None = None  # the offer the move before made, carried on; None: worked out afresh


# -- decisions ---------------------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Shift(Choice):
    """Before a roll: play a Probability Shift card on it, or not."""

    kind: ClassVar[Kind] = Kind.SHIFT


@dataclass(slots=True, eq=False)
class PickEra(Choice):
    """The Era a travel card is aimed at."""

    kind: ClassVar[Kind] = Kind.ERA
    card: int
    k: int  # which of the card's effects
    eras: tuple[int, ...]  # the Eras it may be aimed at


@dataclass(slots=True, eq=False)
class PickStack(Choice):
    """A stack (a unit type in an Era) picked for a card to act on, or to lose a unit from."""

    kind: ClassVar[Kind] = Kind.STACK
    side: int  # whose units
    era: int
    then: str  # move_bonus, banish, destroy, control_enemy_unit, time_vortex or lose
    card: int = -1  # the card played; -1 for a loss in combat
    amount: int = 0


@dataclass(slots=True, eq=False)
class Relocate(Choice):
    """The Era a banished or controlled unit goes to."""

    kind: ClassVar[Kind] = Kind.RELOCATE
    side: int  # whose unit
    era: int
    t: int
    reach: int  # how far it may go


@dataclass(slots=True, eq=False)
class Discard(Choice):
    """A card the seat discards from its hand."""

    kind: ClassVar[Kind] = Kind.DISCARD


@dataclass(slots=True, eq=False)
class Tutor(Choice):
    """A card the seat takes into its hand from its deck or its discard pile."""

    kind: ClassVar[Kind] = Kind.TUTOR
    source: str  # pool or discard
    card: int  # the card being played, never the one taken


@dataclass(slots=True, eq=False)
class Summon(Choice):
    """A unit type brought from the supply into the Era."""

    kind: ClassVar[Kind] = Kind.SUMMON
    era: int


@dataclass(slots=True, eq=False)
class Order(Choice):
    """See the Future: the next of the peeked cards to go on top of the deck."""

    kind: ClassVar[Kind] = Kind.ORDER
    left: int  # cards already put in order


@dataclass(slots=True, eq=False)
class RollCard(Choice):
    """A card added to a coming roll, or none."""

    kind: ClassVar[Kind] = Kind.CARD
    era: int
    roll: str  # the roll: change, hide, escape or enemy_hide
    played: int = 0  # cards added to this roll so far


@dataclass(slots=True, eq=False)
class Stance(Choice):
    """Where both sides meet: fight, or rather not."""

    kind: ClassVar[Kind] = Kind.STANCE
    era: int


@dataclass(slots=True, eq=False)
class Avoid(Choice):
    """The side that would rather not fight: hide or escape."""

    kind: ClassVar[Kind] = Kind.AVOID
    era: int


@dataclass(slots=True, eq=False)
class EscapeTo(Choice):
    """The neighbouring Era an escaping side goes to."""

    kind: ClassVar[Kind] = Kind.ESCAPE_TO
    era: int
    after: str  # what the escape interrupted: the fight's start or a round
    rounds: int  # combat rolls made in the fight so far


@dataclass(slots=True, eq=False)
class ForceCard(Choice):
    """Before a combat roll: a Force card played, or a pass."""

    kind: ClassVar[Kind] = Kind.FORCE_CARD
    era: int
    passes: int  # passes in a row


@dataclass(slots=True, eq=False)
class AfterRoll(Choice):
    """After a combat roll: fight on, stop, or escape."""

    kind: ClassVar[Kind] = Kind.AFTER_ROLL
    era: int


# -- automatic ---------------------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class BeginChange(Step):
    """Change History: a roll, with its cards, in every Era the player reached and does not hold."""

    kind: ClassVar[Kind] = Kind.BEGIN_CHANGE


@dataclass(slots=True, eq=False)
class BeginRecruit(Step):
    """Recruits: a period roll in every Era held that has period troops, then the faction roll."""

    kind: ClassVar[Kind] = Kind.BEGIN_RECRUIT


@dataclass(slots=True, eq=False)
class BeginSeek(Step):
    """Seek & Destroy: every Era in turn."""

    kind: ClassVar[Kind] = Kind.BEGIN_SEEK


@dataclass(slots=True, eq=False)
class AutoMeeting(Step):
    """Seek & Destroy from this Era on: the first Era where both sides stand holds a meeting."""

    kind: ClassVar[Kind] = Kind.AUTO_MEETING
    era: int


@dataclass(slots=True, eq=False)
class AutoMeet(Step):
    """The stances taken: both avoid, one avoids, or they fight."""

    kind: ClassVar[Kind] = Kind.AUTO_MEET
    era: int


@dataclass(slots=True, eq=False)
class AutoRound(Step):
    """A combat round: a roll, while both sides stand and the fight is under its cap."""

    kind: ClassVar[Kind] = Kind.AUTO_ROUND
    era: int
    rounds: int  # combat rolls made in this fight


@dataclass(slots=True, eq=False)
class AutoAfterRound(Step):
    """After a combat roll: each side says whether it fights on."""

    kind: ClassVar[Kind] = Kind.AUTO_AFTER_ROUND
    era: int
    rounds: int


@dataclass(slots=True, eq=False)
class AutoNextRound(Step):
    """What the sides said: an escape roll, the fight's end, or the next round."""

    kind: ClassVar[Kind] = Kind.AUTO_NEXT_ROUND
    era: int
    rounds: int
