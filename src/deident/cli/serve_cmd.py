"""``deident serve``: the REST service on a host and port (needs the ``service`` extra)."""

from __future__ import annotations

import functools
import ipaddress
import os
from pathlib import Path
from typing import Annotated

import typer

from deident.cli.config_options import ConfigOption, mode_or_default, site_config
from deident.cli.conventions import (
    PipelineChoice,
    QuietOption,
    Reporter,
    VerboseOption,
    VersionOption,
    choice,
)
from deident.cli.key_options import replace_options
from deident.cli.scheme_option import OutputSchemeOption
from deident.core.errors import ConfigurationError
from deident.core.heap import settle_heap
from deident.core.secret_files import read_secret_file
from deident.replace.modes import Mode

TOKEN_ENV = "DEIDENT_TOKEN"
MIN_TOKEN_CHARS = 16
DEFAULT_REQUEST_TIMEOUT_S = 60.0
DEFAULT_MAX_QUEUED = 16


def default_workers() -> int:
    """Two worker processes (one on a one-core machine): a large note does not hold up every other request."""
    return min(2, os.cpu_count() or 1)


def is_loopback(host: str) -> bool:
    """True when ``host`` names this machine only (localhost, 127.0.0.0/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def service_token(host: str, token_file: Path | None) -> str | None:
    """The bearer token from ``--token-file`` or $DEIDENT_TOKEN; required unless ``host`` is loopback."""
    if token_file is not None:
        try:
            token = read_secret_file(token_file, "token file").decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigurationError(f"{token_file}: the token file must hold text") from None
        source = str(token_file)
    else:
        token = os.environ.get(TOKEN_ENV, "").strip()
        source = f"${TOKEN_ENV}"
    if not token:
        if is_loopback(host):
            return None
        raise ConfigurationError(
            f"--host {host} is reachable from other machines: give a bearer token with --token-file or ${TOKEN_ENV}"
        )
    if len(token) < MIN_TOKEN_CHARS or not token.isprintable() or " " in token:
        raise ConfigurationError(
            f"{source}: the token must be at least {MIN_TOKEN_CHARS} printable characters without spaces "
            "(make one with `deident keygen TOKENFILE`)"
        )
    return token


def serve(
    context: typer.Context,
    host: Annotated[
        str, typer.Option(metavar="TEXT", help="Interface to listen on (default: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    pipeline: Annotated[PipelineChoice, typer.Option(help="Detection pipeline.")] = PipelineChoice.DEFAULT,
    model: Annotated[Path | None, typer.Option(help="Model folder (default: the bundled model).")] = None,
    scheme: OutputSchemeOption = None,
    recall_target: Annotated[
        float | None, typer.Option(min=0.0, max=1.0, help="Operating point from the model's calibration, e.g. 0.99.")
    ] = None,
    mode: Annotated[Mode, typer.Option(help="Default replacement.")] = Mode.TAG,
    key: Annotated[Path | None, typer.Option(help="Secret key file for surrogate modes.")] = None,
    ephemeral_key: Annotated[
        bool, typer.Option("--ephemeral-key", help="A random key for this service's lifetime.")
    ] = False,
    max_chars: Annotated[
        int,
        typer.Option("--max-note-chars", "--max-chars", min=1, help="Largest note accepted, in characters (HTTP 413)."),
    ] = 1_000_000,
    max_documents: Annotated[int, typer.Option(min=1, help="Most notes per batch request.")] = 1_000,
    token_file: Annotated[
        Path | None,
        typer.Option(
            help=f"File holding the bearer token clients must send (default: ${TOKEN_ENV}); "
            "required unless --host is loopback."
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Worker processes that run detection, each with the model loaded (default: 2, 1 on a one-core "
            "machine); 0: in the service's own process, with no time budget.",
        ),
    ] = None,
    request_timeout: Annotated[
        float,
        typer.Option(
            min=0.001,
            metavar="SECONDS",
            help="Time budget of a request, waiting included: past it the answer is 504 and its worker is replaced.",
        ),
    ] = DEFAULT_REQUEST_TIMEOUT_S,
    max_queued: Annotated[
        int, typer.Option(min=0, help="Requests that may wait for a busy worker; more are answered 503.")
    ] = DEFAULT_MAX_QUEUED,
    config_file: ConfigOption = None,
    verbose: VerboseOption = False,
    quiet: QuietOption = False,
    version: VersionOption = False,
) -> None:
    """Serve the de-identifier over HTTP (JSON). Request bodies are never logged.

    With a token (--token-file or $DEIDENT_TOKEN) every request, /docs included, needs the header
    "Authorization: Bearer TOKEN"; a --host other than loopback needs one.

    Detection runs in --workers processes, so /health answers at once while a large note is processed; each
    request has --request-timeout seconds. Every worker (and several services behind a load balancer) with the
    same --key file gives the same surrogates."""
    try:
        import uvicorn

        from deident.service.app import ServiceLimits, create_app
        from deident.service.pool import WorkerPool
    except ImportError:
        raise ConfigurationError('the REST service needs fastapi and uvicorn: pip install "deident[service]"') from None
    from deident.api import Deidentifier

    token = service_token(host, token_file)
    site = site_config(config_file)
    options = replace_options(mode_or_default(context, mode, site), key, ephemeral_key)
    reporter = Reporter(verbose, quiet)
    limits = ServiceLimits(max_chars=max_chars, max_documents=max_documents)
    # The workers get the model folder, options (key included) and the configuration's path, and load it themselves.
    load = functools.partial(
        Deidentifier.load,
        model,
        pipeline.value,
        recall_target=recall_target,
        scheme=choice(scheme),
        options=options,
        config=config_file,
    )
    processes = default_workers() if workers is None else workers
    pool: WorkerPool | None = None
    with reporter.stage("load"):
        if processes == 0:
            engine: Deidentifier | WorkerPool = load(config=site)
            settle_heap()  # the service's process is ours: the loaded model leaves the collector's walks
        else:
            engine = pool = WorkerPool(load, processes, timeout=request_timeout, max_queued=max_queued)
    try:
        app = create_app(engine, limits, token=token)
        model_id = engine.model_id if isinstance(engine, Deidentifier) else engine.description.model_id
        access = "bearer token required" if token is not None else "no token: this machine only"
        work = "in this process" if pool is None else f"{processes} workers, {request_timeout:g} s per request"
        reporter.summary(
            f"deident serving {model_id} on http://{host}:{port} (mode {options.mode.value}; {work}; {access})"
        )
        # Access logs name method, path and status only; bodies are never logged.
        uvicorn.run(app, host=host, port=port, log_level="warning" if quiet else "info")
    finally:
        if pool is not None:
            pool.close()
