"""Plain Python values for what spans carry: offsets are ``int``, scores ``float``, names ``str``.

A numpy ``float64`` is a ``float`` to ``isinstance`` and to every comparison, so a score computed with numpy passes
everything in deident unnoticed, until a stricter consumer checks types: Spark's schema check rejected three
e-mail and URL spans of 36,763 (a CRF score rounded as a numpy value) and failed the whole job. Spans and parts
coerce their fields here when they are made, so nothing else has to.
"""

from __future__ import annotations

import numbers
import operator


def plain_offset(value: object) -> int:
    """``value`` as an ``int`` (a numpy integer too); TypeError for anything that is not an integer, bools included."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        raise TypeError("span offsets must be integers, not bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"span offsets must be integers, not {type(value).__name__}") from None


def plain_score(value: object) -> float | None:
    """``value`` as a ``float`` (a numpy float or an int too) or None; TypeError for anything else, bools included."""
    if value is None or type(value) is float:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"span scores must be real numbers, not {type(value).__name__}")
    return float(value)


def plain_str(value: object, what: str) -> str:
    """``value`` as a ``str`` (a numpy string too); TypeError for anything else."""
    if type(value) is str:
        return value
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, not {type(value).__name__}")
    return str.__str__(value)


def make_plain(record: object, what: str) -> None:
    """Coerce, in place, the ``start``, ``end``, ``score`` and ``source`` of a frozen span-like dataclass (a span or
    a part of one) to plain values; ``what`` names it in errors ("span", "part")."""
    start, end = getattr(record, "start"), getattr(record, "end")  # noqa: B009 (two record types)
    if type(start) is not int or type(end) is not int:
        object.__setattr__(record, "start", plain_offset(start))
        object.__setattr__(record, "end", plain_offset(end))
    score = getattr(record, "score")  # noqa: B009
    if score is not None and type(score) is not float:
        object.__setattr__(record, "score", plain_score(score))
    source = getattr(record, "source")  # noqa: B009
    if type(source) is not str:
        object.__setattr__(record, "source", plain_str(source, f"{what} source"))


__all__ = ["make_plain", "plain_offset", "plain_score", "plain_str"]
