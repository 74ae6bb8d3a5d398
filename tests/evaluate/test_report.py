from rich.console import Console

from deident.core import AnnotatedDocument, Document, Label, Span
from deident.evaluate import evaluate_corpus, render_report, report_tables

TEXT = "Pt John Smith seen 3/14/05, Dr. Lee."
GOLD = [AnnotatedDocument(Document("a", TEXT), (Span(3, 13, Label.PATIENT), Span(32, 35, Label.DOCTOR)))]
PRED = [AnnotatedDocument(Document("a", TEXT), (Span(3, 7, Label.PATIENT), Span(32, 35, Label.PATIENT)))]


def render(hipaa_only: bool = False) -> str:
    console = Console(record=True, width=140)
    render_report(evaluate_corpus(GOLD, PRED), console, hipaa_only=hipaa_only)
    return console.export_text()


def test_tables_show_metrics_types_and_confusion():
    out = render()
    for heading in ("binary token", "typed token", "entity strict (macro)", "instance fully contained", "PATIENT"):
        assert heading in out
    assert "Confusion of types" in out
    # binary token: gold tokens John, Smith, Lee. ; predicted John, Lee. -> P 1.000, R 0.667
    assert "0.667" in out
    assert "Smith" not in out and "Lee" not in out  # tables never quote the notes


def test_hipaa_only_shows_one_view_without_non_hipaa_rows():
    out = render(hipaa_only=True)
    assert "HIPAA identifiers only" in out and "All PHI types" not in out
    assert "DOCTOR" not in out
    assert len(report_tables(evaluate_corpus(GOLD, PRED), hipaa_only=True)) == 2
