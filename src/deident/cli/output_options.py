"""Options for what a table or corpus output keeps besides the de-identified text, shared by ``run`` and ``spark``
(see deident.run.output_policy)."""

from __future__ import annotations

from typing import Annotated

import typer

PseudonymiseColOption = Annotated[
    list[str] | None,
    typer.Option(
        "--pseudonymise-col",
        metavar="TEXT",
        help="Replace this column's values by pseudonyms, HMAC of the key (repeat).",
    ),
]
