"""``deident serve``: the REST service on a host and port (needs the ``service`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deident.cli.key_options import replace_options
from deident.core.errors import ConfigurationError
from deident.core.heap import settle_heap


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on (default: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    pipeline: Annotated[str, typer.Option(help="Detection pipeline: default, stage1, rules or crf.")] = "default",
    model: Annotated[Path | None, typer.Option(help="Model folder (default: the bundled model).")] = None,
    scheme: Annotated[
        str | None, typer.Option(help="PHI convention: i2b2-2014, physionet or safe-harbor (default: the model's).")
    ] = None,
    recall_target: Annotated[
        float | None, typer.Option(help="Operating point from the model's calibration, e.g. 0.99.")
    ] = None,
    mode: Annotated[
        str, typer.Option(help="Default replacement: tag, redact, mask, surrogate or safe-harbor.")
    ] = "tag",
    key: Annotated[Path | None, typer.Option(help="Secret key file for surrogate modes.")] = None,
    ephemeral_key: Annotated[
        bool, typer.Option("--ephemeral-key", help="A random key for this service's lifetime.")
    ] = False,
    max_chars: Annotated[
        int, typer.Option("--max-note-chars", "--max-chars", help="Largest note accepted, in characters (HTTP 413).")
    ] = 1_000_000,
    max_documents: Annotated[int, typer.Option(help="Most notes per batch request.")] = 1_000,
) -> None:
    """Serve the de-identifier over HTTP (JSON). Request bodies are never logged.

    One process serves requests on a thread pool; for more throughput run several processes with the
    same --key file behind a load balancer (surrogates then agree across them)."""
    try:
        import uvicorn

        from deident.service.app import ServiceLimits, create_app
    except ImportError:
        raise ConfigurationError('the REST service needs fastapi and uvicorn: pip install "deident[service]"') from None
    from deident.api import Deidentifier

    options = replace_options(mode, key, ephemeral_key)
    deidentifier = Deidentifier.load(model, pipeline, recall_target=recall_target, scheme=scheme, options=options)
    settle_heap()  # the service's process is ours: the loaded model leaves the collector's walks
    app = create_app(deidentifier, ServiceLimits(max_chars=max_chars, max_documents=max_documents))
    typer.echo(f"deident serving {deidentifier.model_id} on http://{host}:{port} (mode {options.mode.value})", err=True)
    # Access logs name method, path and status only; bodies are never logged.
    uvicorn.run(app, host=host, port=port, log_level="info")
