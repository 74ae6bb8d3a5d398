"""deident: find and remove protected health information (PHI) in clinical free text."""

from deident.core import AnnotatedDocument, Category, Document, DocumentMetadata, Label, Span

__version__ = "0.1.0"

__all__ = ["AnnotatedDocument", "Category", "Document", "DocumentMetadata", "Label", "Span", "__version__"]
