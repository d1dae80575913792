"""The value types every part of a game's model is built from: ids, texts, colours, counts, paths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

Id = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$", min_length=1, max_length=64)]
Text = Annotated[str, Field(min_length=1, max_length=2000)]
Colour = Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$")]
Count = Annotated[int, Field(ge=0, le=100_000)]
Positive = Annotated[int, Field(ge=1, le=100_000)]
# how many of a printed thing: a thousand copies of one card or token is past any game, and drawing more
# would keep a build busy for minutes on a typo
Printed = Annotated[int, Field(ge=0, le=1_000)]
Spaces = Annotated[int, Field(ge=1, le=100)]  # a board section's columns or rows: a hundred is past any board
Scalar = Union[bool, int, str]


def _inside(example: str) -> Callable[[str], str]:
    """The check of a file of the game's, named from its folder (no absolute path, no way up and out); a refusal
    shows a path of the kind the key wants, such as fonts/title.ttf for a font."""

    def check(path: str) -> str:
        parts = path.replace("\\", "/").split("/")
        if path.startswith(("/", "\\")) or ":" in parts[0] or ".." in parts or "\x00" in path:
            raise ValueError(f"expected a path inside the game's folder, such as {example}, found {path!r}")
        return path

    return check


RelativePath = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_inside("art/dragon.png"))]
FontPath = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_inside("fonts/title.ttf"))]
SheetPath = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_inside("cards.xlsx"))]
ModulePath = Annotated[str, Field(min_length=1, max_length=500), AfterValidator(_inside("engine.py"))]


class Frozen(BaseModel):
    """Base of every model class: immutable, strict, and closed to unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
