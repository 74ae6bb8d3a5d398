"""Secret keys and the HMAC derivations that make surrogates consistent and unguessable.

Every surrogate and date offset is derived from HMAC-SHA256(secret key, patient id, purpose, value):
the same key gives the same output across runs; without the key the mapping cannot be inverted
or recomputed. Keys are never printed; :attr:`SecretKey.key_id` is a one-way fingerprint.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from deident.core.errors import ConfigurationError

MIN_KEY_BYTES = 16


@dataclass(frozen=True)
class SecretKey:
    """A secret used to derive surrogates. ``ephemeral`` keys are random and live for one run."""

    secret: bytes = field(repr=False)
    ephemeral: bool = False

    def __post_init__(self) -> None:
        if len(self.secret) < MIN_KEY_BYTES:
            raise ConfigurationError(f"a surrogate key needs at least {MIN_KEY_BYTES} bytes of secret")

    def __repr__(self) -> str:
        return f"SecretKey(key_id={self.key_id!r}, ephemeral={self.ephemeral})"

    @classmethod
    def from_file(cls, path: str | Path) -> SecretKey:
        path = Path(path)
        try:
            raw = path.read_bytes()
        except OSError as err:
            raise ConfigurationError(f"{path}: cannot read the key file ({err.strerror})") from None
        secret = raw.strip()
        if len(secret) < MIN_KEY_BYTES:
            raise ConfigurationError(f"{path}: the key file must hold at least {MIN_KEY_BYTES} bytes of secret")
        return cls(secret)

    @classmethod
    def from_text(cls, text: str) -> SecretKey:
        return cls(text.encode("utf-8"))

    @classmethod
    def generate(cls) -> SecretKey:
        """A random key for this run only (surrogates will differ from every other run)."""
        return cls(secrets.token_bytes(32), ephemeral=True)

    @staticmethod
    def new_key_text() -> str:
        """Text for a new key file (64 hex digits)."""
        return secrets.token_hex(32)

    @property
    def key_id(self) -> str:
        """A short one-way fingerprint, safe to store in reports and manifests."""
        return hmac.new(self.secret, b"deident-key-id", hashlib.sha256).hexdigest()[:12]

    def digest(self, patient_id: str | None, purpose: str, value: str, attempt: int = 0) -> bytes:
        """HMAC(secret, patient, purpose, value, attempt). Fields are length-prefixed so they cannot run together."""
        mac = hmac.new(self.secret, digestmod=hashlib.sha256)
        for part in (patient_id or "", purpose, value, str(attempt)):
            data = part.encode("utf-8")
            mac.update(len(data).to_bytes(4, "big"))
            mac.update(data)
        return mac.digest()

    def number(self, patient_id: str | None, purpose: str, value: str, attempt: int = 0) -> int:
        """A non-negative 64-bit integer derived from :meth:`digest` (a seed or an index)."""
        return int.from_bytes(self.digest(patient_id, purpose, value, attempt)[:8], "big")
