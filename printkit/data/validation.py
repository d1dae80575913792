"""Turn pydantic's validation errors into one-line problems at file:line:column."""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any, Union, cast

from pydantic import BaseModel, ValidationError

from printkit.core.errors import Problem, shown
from printkit.data.yamlsource import PathT, SourceMap

_TYPE_WORDS = {
    "int": "an integer",
    "bool": "true or false",
    "str": "text",
    "float": "a number",
    "dict": "a mapping",
    "list": "a list",
    "NoneType": "nothing (null)",
}


def found(value: Any) -> str:
    kind = _TYPE_WORDS.get(type(value).__name__, type(value).__name__)
    if isinstance(value, (dict, list)):
        return kind
    return f"{shown(value, 40)} ({kind})"


def _data_path(data: Any, loc: tuple[Any, ...]) -> PathT:
    """Follow pydantic's loc through the data, dropping the union-member names it inserts."""
    out: list[str | int] = []
    here: Any = data
    for seg in loc:
        if (isinstance(here, dict) and isinstance(seg, str) and seg in here) or (
            isinstance(here, list) and isinstance(seg, int) and 0 <= seg < len(here)
        ):
            out.append(seg)
            here = cast(Any, here)[seg]
        elif isinstance(here, dict) and isinstance(seg, str) and seg == loc[-1]:
            out.append(seg)  # a missing or unknown key: the last segment names it
            here = None
        # anything else is a union tag or member name, not a place in the file
    return tuple(out)


def _unwrap(tp: Any) -> list[Any]:
    """The concrete types an annotation can stand for."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(tp)[0])
    if origin in (Union, types.UnionType):
        return [t for arg in typing.get_args(tp) for t in _unwrap(arg)]
    return [tp]


def _model_at(root: type[BaseModel], data: Any, path: PathT) -> type[BaseModel] | None:
    """The model class that reads the mapping found at path."""
    candidates: list[Any] = [root]
    here = data
    for seg in path:
        nxt: list[Any] = []
        for tp in candidates:
            if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(seg, str):
                info = tp.model_fields.get(seg)
                if info is not None:
                    nxt.extend(_unwrap(info.annotation))
            elif typing.get_origin(tp) is list and isinstance(seg, int):
                nxt.extend(_unwrap(typing.get_args(tp)[0]))
            elif typing.get_origin(tp) is dict and isinstance(seg, str):
                nxt.extend(_unwrap(typing.get_args(tp)[1]))
        if isinstance(here, dict):
            here = here.get(seg)
        elif isinstance(here, list) and isinstance(seg, int) and 0 <= seg < len(here):
            here = here[seg]
        else:
            here = None
        models = [t for t in nxt if isinstance(t, type) and issubclass(t, BaseModel)]
        if len(models) > 1 and isinstance(here, dict):
            # a discriminated union: the kind written in the file picks the member
            kind = here.get("kind")
            picked = [m for m in models if _kind_of(m) == kind]
            nxt = [t for t in nxt if t not in models or t in picked]
        candidates = nxt
    models = [t for t in candidates if isinstance(t, type) and issubclass(t, BaseModel)]
    return models[0] if len(models) == 1 else None


def _kind_of(model: type[BaseModel]) -> Any:
    info = model.model_fields.get("kind")
    if info is None:
        return None
    args = typing.get_args(info.annotation)
    return args[0] if len(args) == 1 else None


def _suggestion(root: type[BaseModel], data: Any, path: PathT) -> str | None:
    """The known key closest to an unknown one, if any is close."""
    model = _model_at(root, data, path[:-1])
    allowed = sorted(model.model_fields) if model else []
    hint = difflib.get_close_matches(str(path[-1]), allowed, n=1, cutoff=0.6)
    return hint[0] if hint else None


def _message(err: Any, root: type[BaseModel], data: Any, path: PathT) -> tuple[str, bool]:
    """The sentence for one error, and whether it points at a key rather than a value."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    value = err.get("input")
    if kind == "missing":
        return f"missing required field {path[-1]!r}", False
    if kind == "extra_forbidden":
        model = _model_at(root, data, path[:-1])
        allowed = sorted(model.model_fields) if model else []
        hint = _suggestion(root, data, path)
        extra = (
            f" (did you mean {hint!r}?)" if hint else (f" (expected one of: {', '.join(allowed)})" if allowed else "")
        )
        return f"unknown key {path[-1]!r}{extra}", True
    if kind == "union_tag_invalid":
        expected = ctx.get("expected_tags", "")
        tags = difflib.get_close_matches(str(ctx.get("tag")), [t.strip(" '") for t in str(expected).split(",")], n=1)
        extra = f" (did you mean {tags[0]!r}?)" if tags else f" (expected one of {expected})"
        return f"unknown kind {ctx.get('tag')!r}{extra}", False
    if kind == "value_error":  # a validator's own sentence, already in printkit's words
        return str(ctx.get("error", err["msg"])), False
    if kind == "union_tag_not_found":
        return "missing required field 'kind'", False
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        close = difflib.get_close_matches(
            str(value), [t.strip(" '") for t in expected.replace(" or ", ",").split(",")], n=1
        )
        extra = f" (did you mean {close[0]!r}?)" if close else ""
        return f"expected {expected}, found {found(value)}{extra}", False
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": ">=", "greater_than": ">", "less_than_equal": "<=", "less_than": "<"}[kind]
        limit = next(iter(ctx.values()), "?")
        return f"expected a value {bound} {limit}, found {found(value)}", False
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        if pattern.startswith("^#"):
            return f"expected a colour written #rrggbb, found {found(value)}", False
        if "A-Za-z0-9_-" in pattern:
            return f"expected an id (letters, digits, '-' and '_'), found {found(value)}", False
        return f"expected text matching {pattern}, found {found(value)}", False
    if kind in ("too_short", "too_long"):
        what = "characters" if isinstance(value, str) else "items"
        most = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        length = ctx.get("actual_length", len(value) if isinstance(value, str | list | dict) else "?")
        side = "at least" if kind == "too_short" else "at most"
        return f"expected {side} {most} {what}, found {length}", False
    words = {
        "int_type": "an integer",
        "int_parsing": "an integer",
        "bool_type": "true or false",
        "string_type": "text",
        "list_type": "a list",
        "dict_type": "a mapping",
        "model_type": "a mapping",
        "model_attributes_type": "a mapping",
        "float_type": "a number",
        "none_required": "nothing",
    }
    if kind in words:
        return f"expected {words[kind]}, found {found(value)}", False
    return f"{err['msg']} (found {found(value)})", False


WORDED = 200  # errors of one file worded one by one; a report shows at most 100 anyway


def problems_from(exc: ValidationError, root: type[BaseModel], data: Any, smap: SourceMap) -> list[Problem]:
    """Every error of a validation, one problem per place (union alternatives merged)."""
    by_path: dict[PathT, tuple[list[str], bool]] = {}
    errors = []
    every = exc.errors()
    # wording an error walks the model; past a report's worth, the rest are only counted
    worded, rest = every[:WORDED], every[WORDED:]
    for err in worded:
        loc = tuple(err["loc"])
        if err["type"] == "union_tag_invalid":
            loc += ("kind",)  # point at the misspelt kind, not the whole mapping
        errors.append((err, _data_path(data, loc)))
    # A misspelt key reports once, as unknown with its suggestion, not also as a missing field.
    suggested = {
        path[:-1] + (hint,)
        for err, path in errors
        if err["type"] == "extra_forbidden" and (hint := _suggestion(root, data, path)) is not None
    }
    for err, path in errors:
        if err["type"] == "missing" and path in suggested:
            continue
        message, at_key = _message(err, root, data, path)
        messages, _ = by_path.setdefault(path, ([], at_key))
        if message not in messages:
            messages.append(message)
    out = []
    for path, (messages, at_key) in by_path.items():
        if len(messages) > 1 and all(m.startswith("expected ") for m in messages):
            seen = messages[0].rsplit(", found ", 1)[-1]
            wants = [m[len("expected ") :].rsplit(", found ", 1)[0] for m in messages]
            messages = [f"expected {' or '.join(wants)}, found {seen}"]
        for message in messages:
            out.append(smap.problem(path, message, at_key=at_key))
    if rest:
        first = _data_path(data, tuple(rest[0]["loc"]))
        out.append(smap.problem(first, f"and {len(rest)} more problems from here on in this file, not listed"))
    return out
