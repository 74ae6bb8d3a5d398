from __future__ import annotations

import pytest

from deident.replace.shape import apply_case, reshape


@pytest.mark.parametrize(
    ("original", "replacement", "expected"),
    [
        ("SMITH", "Novak", "NOVAK"),
        ("smith", "Novak", "novak"),
        ("Smith", "novak", "Novak"),
        ("J", "k", "K"),
        ("12", "x", "x"),
    ],
)
def test_apply_case(original: str, replacement: str, expected: str) -> None:
    assert apply_case(original, replacement) == expected


@pytest.mark.parametrize("original", ["617-555-0199", "(617) 555 0199", "MRN 12345", "ab-12", "0", "A"])
def test_reshape_keeps_layout(original: str) -> None:
    for seed in range(20):
        new = reshape(original, seed)
        assert len(new) == len(original) and new != original
        for old_char, new_char in zip(original, new, strict=True):
            assert old_char.isdigit() == new_char.isdigit()
            assert old_char.isupper() == new_char.isupper()
            if not old_char.isalnum():
                assert old_char == new_char


def test_reshape_ignores_separators() -> None:
    def digits(text: str) -> str:
        return "".join(c for c in text if c.isdigit())

    assert digits(reshape("617-555-0199", 7)) == digits(reshape("(617) 555 0199", 7))


@pytest.mark.parametrize(
    ("original", "kept"), [("617-555-0199 ext 12", "ext"), ("555-1234 x45", "x"), ("Ext. 4412", "Ext")]
)
def test_reshape_keeps_listed_words(original: str, kept: str) -> None:
    for seed in range(20):
        new = reshape(original, seed, keep_words=frozenset({"ext", "x"}))
        assert kept in new and new != original and len(new) == len(original)


@pytest.mark.parametrize("original", ["fe80::1ff:fe23:4567:890a", "2001:DB8::FF00:42:8329", "ab"])
def test_reshape_hex_digits_stay_hex(original: str) -> None:
    for seed in range(50):
        new = reshape(original, seed, hex_digits=True)
        assert new != original and len(new) == len(original)
        for old_char, new_char in zip(original, new, strict=True):
            if old_char == ":":
                assert new_char == ":"
            else:
                assert new_char in "0123456789abcdef" or (old_char.isupper() and new_char in "0123456789ABCDEF")
