"""Shared fixtures. ``shared_corpus`` points at ../shared/corpora/physionet-dev when it exists."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "physionet-dev"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def shared_corpus() -> Path:
    path = SHARED / "physionet-dev.text"
    if not path.exists():
        pytest.skip("../shared/corpora/physionet-dev is not available")
    return path


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(autouse=True)
def _unfreeze_heap() -> Iterator[None]:
    """The command-line entry points freeze the heap (deident.core.heap); in the test process, give it back."""
    yield
    if gc.get_freeze_count():
        gc.unfreeze()


class NetworkBlocked(OSError):
    """Raised by the ``no_network`` fixture when code tries to open a connection."""


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every attempt to connect a socket (TCP, UDP, Unix) or resolve a name raises NetworkBlocked."""
    import socket

    def refuse(*args: object, **kwargs: object) -> None:
        raise NetworkBlocked("network access attempted while it is blocked")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket.socket, "sendto", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
