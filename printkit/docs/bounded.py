"""Jinja's sandbox bounded in size, time and memory: a stranger's rules text cannot exhaust the machine.

The sandbox stops a template reaching Python's internals, but not asking for a billion spaces
(`"x".ljust(999999999)`, `"%0999999999d" % 1`, `"x"|center(999999999)`), a number of a billion
digits (`((2**64)**64)**64...`) or a loop of loops. Each of those is refused here before the work
starts, with a sentence saying what was asked; what no check foresees meets a memory ceiling and a
deadline while the text fills in.
"""

from __future__ import annotations

import re
import signal
import string
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from jinja2.filters import FILTERS
from jinja2.sandbox import SandboxedEnvironment

MAX_WIDTH = 10_000  # characters a width or a padding may ask for: a rulebook's line is under a hundred
MAX_TEXT = 1_000_000  # characters one value may grow to: a whole rulebook is tens of thousands
MAX_BITS = 100_000  # an integer of about 30,000 digits: far past any number a rulebook prints
MEMORY_HEADROOM = 160 * 2**20  # bytes the filling-in may add to the process's address space (a rulebook needs a few)

# str methods whose integer arguments say how long the result is
_WIDENING = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs"})
# printf-style conversions: %(name)-08.3f; the width and precision are the numbers (or *) it holds
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


class TooBig(Exception):
    """The rules text asked for more than a rulebook holds; the message says what."""


class TooLong(Exception):
    """The time the rules text may take to fill in is up."""


def _width(value: Any, what: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_WIDTH:
        raise TooBig(f"the rules text asks for {what} of {value:,} characters; at most {MAX_WIDTH:,}")


def _check_percent(text: str, args: Any) -> None:
    starred = False
    for match in _PERCENT.finditer(text):
        for part in match.groups():
            if part == "*":
                starred = True
            elif part:
                _width(int(part), "a width")
    if starred:
        for value in args if isinstance(args, tuple) else (args,):
            _width(value, "a width")


def _check_format(text: str) -> None:
    """Widths in a str.format template, nested fields ({:>{w}}) included."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:
        return  # the format call itself reports the malformed template
    for _, _, spec, _ in fields:
        if spec:
            if "{" in spec:
                raise TooBig("the rules text takes a format width from a field; write the width as a number")
            for digits in re.findall(r"\d+", spec):
                _width(int(digits), "a width")


def _bounded_filter(name: str, check: Callable[..., None]) -> Callable[..., Any]:
    original = FILTERS[name]

    def bounded(*args: Any, **kwargs: Any) -> Any:
        check(*args, **kwargs)
        return original(*args, **kwargs)

    bounded.__name__ = original.__name__
    if hasattr(original, "jinja_pass_arg"):  # jinja passes the environment to a filter so marked: keep the mark
        bounded.jinja_pass_arg = original.jinja_pass_arg  # type: ignore[attr-defined]
    return bounded


def _center(value: Any, width: Any = 80) -> None:
    _width(width, "a centred line")


def _indent(value: Any, width: Any = 4, *args: Any, **kwargs: Any) -> None:
    _width(width, "an indent")
    if isinstance(width, str) and len(width) > MAX_WIDTH:
        raise TooBig(f"the rules text indents by a text of {len(width):,} characters")


def _format(value: Any, *args: Any, **kwargs: Any) -> None:
    _check_percent(str(value), args or tuple(kwargs.values()))


def _wordwrap(env: Any, value: Any, width: Any = 79, *args: Any, **kwargs: Any) -> None:
    _width(width, "a line")


class Bounded(SandboxedEnvironment):
    """Jinja's sandbox, refusing what would make a value bigger than a rulebook."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.filters.update(
            center=_bounded_filter("center", _center),
            indent=_bounded_filter("indent", _indent),
            format=_bounded_filter("format", _format),
            wordwrap=_bounded_filter("wordwrap", _wordwrap),
        )

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        numbers = isinstance(left, int) and isinstance(right, int)
        if operator == "**" and numbers and (right > 64 or abs(left).bit_length() * max(right, 0) > MAX_BITS):
            raise TooBig(f"the rules text raises {_short(left)} to the power {right}: too big to print")
        if operator == "%" and isinstance(left, str):
            _check_percent(left, right)
        if operator == "*" and isinstance(right, int) and isinstance(left, (str, list, tuple)):
            left, right = right, left
        repeats = operator == "*" and isinstance(left, int) and isinstance(right, (str, list, tuple))
        if repeats and left * len(right) > MAX_TEXT:
            raise TooBig(f"the rules text repeats something into more than {MAX_TEXT:,} characters")
        if operator == "*" and numbers and abs(left).bit_length() + abs(right).bit_length() > MAX_BITS:
            raise TooBig("the rules text multiplies numbers too big to print")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, str):
            name = getattr(__obj, "__name__", "")
            if name in _WIDENING:
                for value in (*args, *kwargs.values()):
                    _width(value, f"{name}()")
            elif name == "replace" and len(args) >= 2 and isinstance(args[1], str):
                old, new = args[0], args[1]
                grown = len(owner) + owner.count(old) * (len(new) - len(old)) if isinstance(old, str) else 0
                if grown > MAX_TEXT:
                    raise TooBig(f"the rules text replaces into {grown:,} characters")
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        _check_format(value.__self__)
        return wrapped


def _short(number: int) -> str:
    digits = abs(number).bit_length() * 0.30103
    return f"{number:,}" if digits < 20 else f"a number of about {digits:,.0f} digits"


@contextmanager
def limits(seconds: float) -> Iterator[None]:
    """Stops what runs inside after seconds (TooLong) and past MEMORY_HEADROOM (MemoryError), where it can.

    The timer is SIGALRM, so it works in a Unix process's main thread; the memory ceiling is the
    address-space limit, lowered for the while and restored, where the platform has one.
    """
    with _memory_ceiling():
        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
            yield
            return

        def stop(signum: int, frame: object) -> None:
            raise TooLong

        previous = signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


@contextmanager
def _memory_ceiling() -> Iterator[None]:
    try:
        import resource

        with open("/proc/self/statm") as statm:  # the address space in use now, in pages
            in_use = int(statm.read().split()[0]) * resource.getpagesize()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        ceiling = in_use + MEMORY_HEADROOM
        if soft != resource.RLIM_INFINITY and soft < ceiling:
            ceiling = soft  # already lower: leave it be
        if hard != resource.RLIM_INFINITY:
            ceiling = min(ceiling, hard)
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))
    except (ImportError, OSError, ValueError, IndexError):  # not Linux, or the limit cannot be set: no ceiling
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
