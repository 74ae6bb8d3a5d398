"""``deident review``: a local page to check and correct detected spans (needs the ``service`` extra)."""

from __future__ import annotations

import ipaddress
import socket
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from deident.cli.conventions import (
    FormatChoice,
    PipelineChoice,
    QuietOption,
    Reporter,
    VerboseOption,
    VersionOption,
    choice,
)
from deident.cli.input_options import DelimiterOption, EncodingOption, QuotecharOption, read_options
from deident.cli.path_checks import check_inputs
from deident.core.errors import ConfigurationError

LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


ANY_HOST = "*"


class ReviewOrder(StrEnum):
    INPUT = "input"
    UNCERTAINTY = "uncertainty"


def allowed_hosts(host: str) -> frozenset[str]:
    """The Host header values the server answers: this machine's names and the bound host itself; any name when
    it listens on every interface (then only the token guards it)."""
    bound = host.strip("[]").lower()
    if bound in {"0.0.0.0", "::"}:
        return frozenset({ANY_HOST})
    return frozenset({"127.0.0.1", "localhost", "::1", bound})


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host.strip("[]"), 0))
        return int(probe.getsockname()[1])


def build_server(app: Any, host: str, port: int) -> Any:
    """A uvicorn server with the access log off and only warnings logged: request lines carry the token and
    the note's position, and nothing about a note may reach a log."""
    import uvicorn

    config = uvicorn.Config(app, host=host, port=port, access_log=False, log_level="warning", server_header=False)
    return uvicorn.Server(config)


def review(
    input_path: Annotated[Path, typer.Argument(metavar="INPUT", help="Notes to review (any supported format).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where the corrected corpus is exported.")],
    reviewer: Annotated[
        str, typer.Option(metavar="TEXT", help="Your name or initials, written with every correction.")
    ],
    model: Annotated[Path | None, typer.Option(help="Model folder (default: the bundled model).")] = None,
    pipeline: Annotated[PipelineChoice, typer.Option(help="Detection pipeline.")] = PipelineChoice.DEFAULT,
    spans: Annotated[
        Path | None, typer.Option(help="Review these predicted spans (a corpus with the same note ids) instead.")
    ] = None,
    input_format: Annotated[
        FormatChoice | None, typer.Option("--from", help="Format of INPUT (default: guessed).")
    ] = None,
    output_format: Annotated[
        str | None,
        typer.Option("--to", metavar="TEXT", help="Export format: jsonl, brat or i2b2-2014 (default: from -o)."),
    ] = None,
    log: Annotated[
        Path | None, typer.Option(help="Corrections log (default: OUTPUT with .corrections.jsonl appended).")
    ] = None,
    order: Annotated[
        ReviewOrder, typer.Option(help="Note order: input, or uncertainty (most uncertain first).")
    ] = ReviewOrder.INPUT,
    uncertain_margin: Annotated[
        float,
        typer.Option(
            min=0.0, max=1.0, help="A span is uncertain when the filter's probability is this close to its threshold."
        ),
    ] = 0.15,
    host: Annotated[
        str | None,
        typer.Option(metavar="TEXT", help="Interface to listen on (default 127.0.0.1; another needs this option)."),
    ] = None,
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port (0: any free port).")] = 8765,
    encoding: EncodingOption = "utf-8",
    delimiter: DelimiterOption = None,
    quotechar: QuotecharOption = '"',
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Review detected PHI spans in the browser: accept, reject, relabel, add, widen or narrow them. Every
    action is saved at once to the corrections log; run the same command again to resume."""
    try:
        from deident.review.app import ReviewConfig, create_review_app, new_token
    except ImportError:
        raise ConfigurationError('deident review needs fastapi and uvicorn: pip install "deident[service]"') from None
    from deident.api import Deidentifier
    from deident.review.corrections import CorrectionLog
    from deident.review.session import ReviewSession, load_notes, order_by_uncertainty

    reporter = Reporter(verbose, quiet)
    options = read_options(encoding, delimiter, quotechar)
    check_inputs([input_path])
    bind = host if host is not None else LOOPBACK
    if not is_loopback(bind):
        typer.echo(f"warning: listening on {bind}: other machines can reach the page", err=True)
    if port == 0:
        port = free_port(bind)
    with reporter.stage("load"):
        deidentifier = None if spans is not None else Deidentifier.load(model, pipeline.value)
    with reporter.stage("read and detect"):
        notes = load_notes(input_path, deidentifier, spans, choice(input_format), options)
    if order is ReviewOrder.UNCERTAINTY:
        notes = order_by_uncertainty(notes, uncertain_margin)
    log_path = log if log is not None else output.with_name(output.name + ".corrections.jsonl")
    correction_log = CorrectionLog(log_path)
    session = ReviewSession(notes, correction_log, reviewer, uncertain_margin)
    if correction_log.skipped_lines:
        typer.echo(f"note: {log_path}: skipped a torn last line (a crash while it was written)", err=True)
    token = new_token()
    config = ReviewConfig(output, output_format, token, allowed_hosts(bind))
    server = build_server(create_review_app(session, config), bind, port)
    shown = f"[{bind}]" if ":" in bind else bind
    done = sum(len(v) for v in session.corrections.values())
    typer.echo(f"deident review: {len(notes)} notes, {done} corrections so far in {log_path}", err=True)
    typer.echo(f"open http://{shown}:{port}/?token={token}", err=True)
    server.run()
