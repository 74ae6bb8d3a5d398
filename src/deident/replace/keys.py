"""Secret keys and the HMAC derivations that make surrogates consistent and unguessable.

Every surrogate and date offset is derived from HMAC-SHA256(secret key, patient id, purpose, value):
the same key gives the same output across runs; without the key the mapping cannot be inverted
or recomputed. Keys are never printed; :attr:`SecretKey.key_id` is a one-way fingerprint.

A key file must hold at least 32 bytes of keygen-grade randomness: 64 or more hex digits (as written by
``deident keygen`` or ``openssl rand -hex 32``), base64 of 32 or more bytes (``openssl rand -base64 32``)
or 32 or more raw random bytes. Passwords, phrases and repetitive keys are refused; the file's bytes
(not their decoded form) are the HMAC secret, so a key file keeps giving the same surrogates.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import string
from dataclasses import dataclass, field
from pathlib import Path

from deident.core.errors import ConfigurationError
from deident.core.secret_files import read_secret_file

MIN_KEY_BYTES = 16  # any secret given in code (tests, callers that derive their own)
MIN_KEY_FILE_BYTES = 32  # random bytes a key file must hold: 256 bits
# Random bytes repeat values rarely: 32 of them show about 30 distinct values. A key whose decoded bytes
# show fewer than this share of the distinct values expected of random bytes is refused as low-entropy.
_DISTINCT_SHARE = 0.75
_KEY_FILE_FORMATS = (
    "at least 32 random bytes: 64 hex digits (`deident keygen KEYFILE` or `openssl rand -hex 32`), "
    "base64 (`openssl rand -base64 32`) or raw random bytes"
)


def key_file_problem(secret: bytes) -> str | None:
    """Why ``secret`` (a key file's stripped bytes) is not keygen-grade randomness, or None when it is.

    The message never quotes the key."""
    material = _decoded_key_material(secret)
    if material is None:
        return (
            f"the key file holds text that is neither hex nor base64 (a password or phrase?); use {_KEY_FILE_FORMATS}"
        )
    if len(material) < MIN_KEY_FILE_BYTES:
        return f"the key file holds {len(material)} bytes of secret; use {_KEY_FILE_FORMATS}"
    expected = 256 * (1 - (255 / 256) ** len(material))
    if len(set(material)) < _DISTINCT_SHARE * expected:
        return f"the key file's bytes are too repetitive to be random (low entropy); use {_KEY_FILE_FORMATS}"
    return None


def _decoded_key_material(secret: bytes) -> bytes | None:
    """The random bytes a key file's content stands for: hex and base64 text decoded, other text None
    (not random bytes), binary as it is."""
    try:
        text = secret.decode("ascii")
    except UnicodeDecodeError:
        try:
            secret.decode("utf-8")
        except UnicodeDecodeError:
            return secret  # binary: raw random bytes
        return None  # non-ASCII text: a phrase
    compact = "".join(text.split())
    if compact and all(ch in string.hexdigits for ch in compact) and len(compact) % 2 == 0:
        return bytes.fromhex(compact)
    # Random base64 mixes upper case, lower case and digits; a run of words typed without spaces does not.
    classes = sum(any(test(ch) for ch in compact) for test in (str.isupper, str.islower, str.isdigit))
    if classes == 3 and len(compact) % 4 == 0:
        for altchars in (b"+/", b"-_"):  # standard and URL-safe alphabets
            try:
                return base64.b64decode(compact, altchars=altchars, validate=True)
            except binascii.Error:
                continue
    return None


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
        """The key in a key file; ConfigurationError when it is not keygen-grade randomness
        (:func:`key_file_problem`), a :class:`~deident.core.secret_files.SecretFileWarning` when other
        users can read it."""
        path = Path(path)
        secret = read_secret_file(path, "key file")
        problem = key_file_problem(secret)
        if problem is not None:
            raise ConfigurationError(f"{path}: {problem}")
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
