"""Consistent surrogates for one patient.

The same normalised original always gets the same surrogate (the first draw depends only on the
key, the patient and the value), and two different originals of one patient never share one:
values are assigned in sorted order, and a draw that is already taken, or that equals any of the
patient's own originals, is re-drawn with the next attempt number. The table lives in memory for
the patient's notes only and is never written out.

A person gets a person's name whatever the sub-label says: a username written as a name, or a place
candidate that is one of the patient's names or a first name and a surname ("Zelda Quarrington"
labelled LOCATION_OTHER), is replaced as a name, never by a place.
"""

from __future__ import annotations

from collections.abc import Iterable

import regex

from deident.core.labels import Category, Label
from deident.detect.lexicon.data import load_lexicon
from deident.replace import names, surrogates
from deident.replace.keys import SecretKey
from deident.replace.shape import apply_case

MAX_ATTEMPTS = 64
_WORD = regex.compile(r"[^\W_]+")
# Words a value surrogate may share with an original: generic parts of facility names, phone numbers,
# e-mail addresses and URLs.
_SHAREABLE = surrogates.GENERIC_PLACE_WORDS | surrogates.PHONE_WORDS | surrogates.WEB_WORDS
# Place labels under which a detector may have put a person's name.
_PERSON_PRONE = frozenset({Label.LOCATION_OTHER, Label.CITY})
_NAME_WORDS = regex.compile(r"\p{Lu}[\p{Ll}'’-]+(?:[ \t]+\p{Lu}[\p{Ll}'’-]+){0,2}")
_POSSESSIVE = regex.compile(r"['’]s\b", regex.IGNORECASE)


def normalise(label: Label, text: str) -> str:
    """The form under which two mentions count as the same value."""
    if label in surrogates.RESHAPED:
        return "".join(c for c in text if c.isalnum()).casefold()
    return " ".join(_WORD.findall(_POSSESSIVE.sub("", text))).casefold()


def _namespace(kind: str) -> str:
    """First and last names share one namespace ("Thomas" is both); initials have their own."""
    return "initial" if kind == "initial" else "name"


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def written_as_name(text: str) -> bool:
    """One to three capitalised words ("Zelda Quarrington"), as a person's name is written."""
    return _NAME_WORDS.fullmatch(text.strip()) is not None


class PatientSurrogates:
    """Surrogates for the originals of one patient (names token by token, other values whole)."""

    def __init__(self, key: SecretKey, patient_id: str | None, originals: Iterable[tuple[Label, str]]) -> None:
        self._key = key
        self._patient = patient_id
        items = sorted(set(originals), key=lambda item: (item[0].value, item[1]))
        # Words of every original: no surrogate may reproduce one of them.
        self._forbidden: set[str] = set()
        for _, text in items:
            self._forbidden |= _words(text)
        self._used: set[str] = set()
        self._tokens: dict[str, str] = {}
        self._values: dict[tuple[Label, str], str] = {}
        self._seeds: dict[tuple[Label, str], int] = {}
        self._name_tokens = {
            token for label, text in items if label.category is Category.NAME for token in names.name_tokens(text)
        }
        persons = {(label, text) for label, text in items if self.is_person(label, text)}
        name_tokens = sorted(self._name_tokens | {token for _, text in persons for token in names.name_tokens(text)})
        for token in name_tokens:
            self._tokens[token] = self._draw_token(token)
        for label, text in items:
            if label.category is not Category.NAME and (label, text) not in persons:
                self._value(label, text)

    def is_person(self, label: Label, original: str) -> bool:
        """Whether a span is replaced by a person's name: a NAME span (a username only when it is
        written as a name), or a place-prone span that is one of the patient's names or is written as
        a first name and a surname."""
        if label.category is Category.NAME:
            return label is not Label.USERNAME or written_as_name(original)
        if label not in _PERSON_PRONE or not written_as_name(original):
            return False
        tokens = names.name_tokens(original)
        if not tokens or _words(original) & surrogates.GENERIC_PLACE_WORDS:
            return False
        if all(token in self._name_tokens for token in tokens):
            return True
        # A listed first name and more words, unless the whole is a listed place ("Virginia Beach").
        place = " ".join(tokens)
        return (
            len(tokens) >= 2
            and tokens[0] in load_lexicon("first_names")
            and not any(place in load_lexicon(kind) for kind in ("cities", "states", "countries", "us_counties"))
        )

    def name(self, original: str) -> str:
        return names.render_name(original, self._token)

    def value(self, label: Label, original: str) -> str:
        """The surrogate in the layout and case of this mention of the value."""
        candidate = self._value(label, original)
        if label in surrogates.RESHAPED:
            return surrogates.reshape_value(label, original, self._seeds[(label, normalise(label, original))])
        return apply_case(original.strip(), candidate)

    def _token(self, token: str) -> str:
        if token not in self._tokens:  # a token seen only now (e.g. from a caller's own span)
            self._tokens[token] = self._draw_token(token)
        return self._tokens[token]

    def _draw_token(self, token: str) -> str:
        kind = names.name_kind(token)
        candidate = token
        for attempt in range(MAX_ATTEMPTS):
            seed = self._key.number(self._patient, f"name:{kind}", token, attempt)
            candidate = surrogates.draw_name_token(kind, seed)
            if self._accept(candidate, kind=_namespace(kind)):
                break
        else:
            candidate = self._fallback(kind, token)
        self._used.add(f"{_namespace(kind)}:{candidate.casefold()}")
        return candidate

    def _value(self, label: Label, original: str) -> str:
        norm = normalise(label, original)
        cache_key = (label, norm)
        if cache_key in self._values:
            return self._values[cache_key]
        canonical = original.strip()
        candidate = canonical
        seed = 0
        for attempt in range(MAX_ATTEMPTS):
            seed = self._key.number(self._patient, f"value:{label.value}", norm, attempt)
            candidate = surrogates.draw(label, canonical, seed)
            if self._accept(candidate, kind="value"):  # one namespace: a city never shares a hospital's surrogate
                break
        else:  # every draw clashed: new letters and digits in the original's layout
            seed = self._key.number(self._patient, f"value:{label.value}:fallback", norm)
            candidate = surrogates.reshape_value(label, canonical, seed)
        self._used.add(f"value:{candidate.casefold()}")
        self._values[cache_key] = candidate
        self._seeds[cache_key] = seed
        return candidate

    def _accept(self, candidate: str, kind: str) -> bool:
        if f"{kind}:{candidate.casefold()}" in self._used:
            return False
        # A value may repeat the generic words of an original ("X Nursing Home", "ext"); a name never.
        shareable = _SHAREABLE if kind == "value" else frozenset()
        if kind != "initial" and any(w in self._forbidden and w not in shareable for w in _words(candidate)):
            return False
        return kind != "initial" or candidate.casefold() not in self._forbidden

    def _fallback(self, kind: str, token: str) -> str:
        # Only reached when a patient has more distinct initials than letters are free.
        seed = self._key.number(self._patient, f"name:{kind}:fallback", token)
        return surrogates.draw_name_token(kind, seed)
