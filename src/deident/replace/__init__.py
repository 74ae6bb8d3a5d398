"""Replacing PHI: tags, redaction, masks and consistent surrogates (see :class:`Replacer`)."""

from deident.replace.keys import SecretKey
from deident.replace.modes import Mode
from deident.replace.replacer import Replaced, ReplaceOptions, Replacer

__all__ = ["Mode", "ReplaceOptions", "Replaced", "Replacer", "SecretKey"]
