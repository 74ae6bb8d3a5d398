"""Synthetic annotated notes in several styles (discharge summary, ICU nursing, psychiatric, forum
post) with gold PHI spans exact by construction, to train on more than one note style."""

from deident.synth.generate import STYLES, generate_corpus, generate_note, iter_notes, note_seed

__all__ = ["STYLES", "generate_corpus", "generate_note", "iter_notes", "note_seed"]
