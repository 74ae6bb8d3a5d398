"""Invented inputs for fuzzing the pipeline (tests/test_api_fuzz.py and bench/fuzz_large.py share them).

Note templates with PHI slots (``{name}``, ``{date}``, ``{mrn}``, ``{phone}``, ``{email}``, ``{age}``, ``{zip}``),
the invisible and control characters that are injected into their values, and names of awkward shapes.
"""

from __future__ import annotations

# Format characters and a combining mark (deident.text.visible skips them inside values).
INVISIBLE = "\u200b\u200c\u200d\u00ad\ufeff\u2060\u200e\u200f\u202e\u2066\u0301"
# Every ASCII control, DEL, NEL, the line and paragraph separators, and the invisible ones.
CONTROL = "".join(map(chr, range(32))) + "\x7f\x85\u2028\u2029" + INVISIBLE
TEMPLATES = (
    "Pt {name} seen {date}, MRN {mrn}. Call {phone} or {email}.",
    "{name}\t{date}\t{phone}\n{mrn}",
    "SEEN BY DR. {name} ON {date}; F/U {phone}",
    "- {name}, {age} yo, zip {zip}\n- wife {name} at {phone}",
    "Patient: {name}\u00a0({mrn})\r\nDOB: {date}",
    "{name}, {name} ({age}) lives at {zip}; e-mail {email}",
)
NAMES = (
    "Ignatius Wobblestone",
    "Marisol Quillfeather",
    "O'Brannigan",
    "Zoë Łukasiewicz",
    "li wei",
    "WOBBLESTONE, IGNATIUS",
)

__all__ = ["CONTROL", "INVISIBLE", "NAMES", "TEMPLATES"]
