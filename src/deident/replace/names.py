"""Name surrogates, token by token, so that shape survives: capitalisation, initials,
"Last, First" order, hyphenated names, possessives and titles; first names keep their gender."""

from __future__ import annotations

import functools
from collections.abc import Callable

import regex

from deident.replace.shape import apply_case

_TOKEN = regex.compile(r"[^\W\d_]+(?:['’][^\W\d_]{2,})*")  # "O'Brien" is one token, "Smith's" is not
_POSSESSIVE = regex.compile(r"['’]s\b|['’](?=\s|$)", regex.IGNORECASE)
TITLES = frozenset("dr dr. doctor mr mrs ms miss mx prof md do rn np pa phd jr sr ii iii iv nurse attending".split())


@functools.lru_cache(maxsize=1)
def name_pools() -> dict[str, tuple[str, ...]]:
    """Faker's en_US name lists: "female" and "male" first names and "last" names."""
    from faker.providers.person.en_US import Provider

    return {
        "female": tuple(Provider.first_names_female),
        "male": tuple(Provider.first_names_male),
        "last": tuple(Provider.last_names),
    }


@functools.lru_cache(maxsize=1)
def _first_name_gender() -> dict[str, str]:
    pools = name_pools()
    table = {name.casefold(): "male" for name in pools["male"]}
    table.update({name.casefold(): "female" for name in pools["female"] if name.casefold() not in table})
    return table


def name_kind(token: str) -> str:
    """Which pool a name token draws from: "initial", "female", "male" or "last"."""
    if len(token) == 1:
        return "initial"
    return _first_name_gender().get(token.casefold(), "last")


def name_tokens(text: str) -> list[str]:
    """The normalised tokens of a name that get surrogates (titles are kept as written)."""
    return [t.casefold() for t in _TOKEN.findall(_POSSESSIVE.sub("", text)) if t.casefold() not in TITLES]


def render_name(original: str, surrogate_of: Callable[[str], str]) -> str:
    """Replace each name token through ``surrogate_of`` (normalised token -> surrogate token),
    keeping separators, titles, possessives and each token's case."""

    def swap(match: regex.Match[str]) -> str:
        token = match.group(0)
        if token.casefold() in TITLES and len(token) > 1:
            return token
        if match.start() > 0 and original[match.start() - 1] in "'’" and token.casefold() == "s":
            return token  # the "s" of a possessive
        return apply_case(token, surrogate_of(token.casefold()))

    return _TOKEN.sub(swap, original)
