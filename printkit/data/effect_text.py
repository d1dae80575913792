"""Write a card's printed effect text from its structured effects and the game's text templates.

The wording lives in each game's `texts:` table (data); this module only fills the
templates in, so the card face, the booklet and the engine read one structure.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from printkit.data.model import Attack, Card, Character, SacrificeFor, Tactics, Tanach, TimeCard

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _spoken_list(values: list[Any], last: str) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def _attack_keys(attack: Attack) -> list[str]:
    keys = [f"ability.attack.{attack.target}"]
    if attack.amount_from:
        keys.append(f"ability.amount_from.{attack.amount_from}")
    if attack.survived_days:
        keys.append("ability.condition.survived_days")
    if attack.deployed_today:
        keys.append("ability.condition.deployed_today")
    return keys


def template_keys(card: Card) -> list[str]:
    """Every template key the card's text needs: a missing one is a data error."""
    if isinstance(card, Character):
        keys: list[str] = []
        for ability in card.ability:
            keys.append(f"ability.{ability.kind}")
            if isinstance(ability, Attack):
                keys[-1:] = _attack_keys(ability)
            elif isinstance(ability, SacrificeFor):
                keys.extend(_attack_keys(ability.attack))
        return keys
    if isinstance(card, TimeCard):
        return [f"timeline.{e.kind}" for e in card.effects] + ["timeline.or"] * (len(card.effects) > 1)
    if isinstance(card, Tanach):
        return [f"tanach.{card.effect.kind}"] + [f"requires.{r.kind}" for r in card.requires]
    if isinstance(card, Tactics):
        return [f"tactics.{card.effect.kind}"]
    return []


def _fill(template: str, model: BaseModel, **extra: Any) -> str:
    fields = {k: v for k, v in model.model_dump().items() if v is not None}
    for key, value in fields.items():
        if isinstance(value, list):
            fields[key] = _spoken_list(value, "or")
    fields.update(extra)
    # Only bare {name} placeholders: templates are data and get no attribute access.
    return _PLACEHOLDER.sub(lambda m: str(fields[m.group(1)]), template)


def _attack_text(attack: Attack, texts: dict[str, str]) -> str:
    extra: dict[str, Any] = {}
    if attack.amount_from:
        extra["amount"] = texts[f"ability.amount_from.{attack.amount_from}"]
    text = _fill(texts[f"ability.attack.{attack.target}"], attack, **extra)
    if attack.survived_days:
        text += _fill(texts["ability.condition.survived_days"], attack)
    if attack.deployed_today:
        text += _fill(texts["ability.condition.deployed_today"], attack)
    return text


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def effect_lines(card: Card, texts: dict[str, str]) -> list[str]:
    """The card's effect as printed sentences, one per ability or requirement line."""
    if isinstance(card, Character):
        out = []
        for ability in card.ability:
            if isinstance(ability, Attack):
                out.append(_attack_text(ability, texts))
            elif isinstance(ability, SacrificeFor):
                out.append(_fill(texts["ability.sacrifice_for"], ability, attack=_attack_text(ability.attack, texts)))
            else:
                out.append(_fill(texts[f"ability.{ability.kind}"], ability))
        return [_capitalise(line) + "." for line in out]
    if isinstance(card, TimeCard):
        joiner = texts.get("timeline.or", " or ")
        return [_capitalise(joiner.join(_fill(texts[f"timeline.{e.kind}"], e) for e in card.effects))]
    if isinstance(card, Tanach):
        lines = [_capitalise(_fill(texts[f"tanach.{card.effect.kind}"], card.effect))]
        lines += [_capitalise(_fill(texts[f"requires.{r.kind}"], r)) for r in card.requires]
        return lines
    if isinstance(card, Tactics):
        return [_capitalise(_fill(texts[f"tactics.{card.effect.kind}"], card.effect))]
    text = getattr(card, "text", None)
    return [str(text)] if text else []


def effect_text(card: Card, texts: dict[str, str]) -> str:
    return " ".join(effect_lines(card, texts))
