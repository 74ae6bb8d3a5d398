import json
from pathlib import Path

from typer.testing import CliRunner

from deident.cli.app import app
from deident.core import AnnotatedDocument, Document, Label
from deident.evaluate import EvaluationInputError
from deident.io import read_corpus, write_corpus

runner = CliRunner()


def _without(fixtures: Path, tmp_path: Path, drop: set[tuple[str, int]]) -> Path:
    """The mini fixture as JSONL predictions, without the gold spans starting at the given offsets."""
    docs = read_corpus(fixtures / "mini.text")
    pred = [d.with_spans([s for s in d.spans if (d.id, s.start) not in drop]) for d in docs]
    write_corpus(pred, tmp_path / "pred.jsonl")
    return tmp_path / "pred.jsonl"


def test_evaluate_json_against_itself(fixtures: Path):
    result = runner.invoke(app, ["evaluate", str(fixtures / "mini.text"), str(fixtures / "mini.text"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {k: data["binary_token"][k] for k in ("precision", "recall", "f1", "f2")} == dict.fromkeys(
        ("precision", "recall", "f1", "f2"), 1.0
    )
    assert data["instance"]["recall_fully_contained"] == data["instance"]["recall_any_overlap"] == 1.0
    assert data["documents"]["gold"] == 3


def test_evaluate_json_hand_count(fixtures: Path, tmp_path: Path):
    # drop "Hospital" (43) and the phone number (73) in note 1_1: the 10 gold spans each touch their own
    # token, so binary TP 8, FP 0, FN 2: P 1.0, R 0.8, F1 = 1.6/1.8, F2 = 5*0.8/(4+0.8) = 5/6;
    # instance: 8 of 10 gold spans fully contained and overlapped
    pred = _without(fixtures, tmp_path, {("1_1", 43), ("1_1", 73)})
    result = runner.invoke(app, ["evaluate", str(fixtures / "mini.text"), str(pred), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    binary = data["binary_token"]
    assert (binary["tp"], binary["fp"], binary["fn"]) == (8, 0, 2)
    assert (binary["precision"], binary["recall"]) == (1.0, 0.8)
    assert abs(binary["f1"] - 1.6 / 1.8) < 1e-12 and abs(binary["f2"] - 5 / 6) < 1e-12
    assert (data["instance"]["recall_fully_contained"], data["instance"]["recall_any_overlap"]) == (0.8, 0.8)
    assert data["binary_token"]["by_label"]["PHONE"]["recall"] == 0.0


def test_evaluate_json_hipaa_only(fixtures: Path, tmp_path: Path):
    # HIPAA gold: 67, 3/14, Mercy, Hospital, Anna, phone, JOHN = 7 (the 3 DOCTOR names are not HIPAA);
    # dropping Hospital and the phone leaves TP 5, FN 2: R 5/7
    pred = _without(fixtures, tmp_path, {("1_1", 43), ("1_1", 73)})
    args = ["evaluate", str(fixtures / "mini.text"), str(pred), "--json", "--hipaa-only", "--pred-format", "jsonl"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["view"] == "hipaa"
    assert (data["binary_token"]["tp"], data["binary_token"]["fn"]) == (5, 2)
    assert Label.DOCTOR.value not in data["binary_token"]["by_label"]


def test_evaluate_tables(fixtures: Path):
    result = runner.invoke(app, ["evaluate", str(fixtures / "mini.text"), str(fixtures / "mini.text")])
    assert result.exit_code == 0, result.output
    assert "binary token" in result.output and "Confusion of types" in result.output


def test_evaluate_differing_text_is_an_error(fixtures: Path, tmp_path: Path):
    docs = read_corpus(fixtures / "mini.text")
    changed = [docs[0], AnnotatedDocument(Document("1_2", docs[1].text + "x"), docs[1].spans)]
    write_corpus(changed, tmp_path / "pred.jsonl")
    result = runner.invoke(app, ["evaluate", str(fixtures / "mini.text"), str(tmp_path / "pred.jsonl"), "--json"])
    assert isinstance(result.exception, EvaluationInputError)
    assert "'1_2'" in str(result.exception)


def test_evaluate_warns_when_predictions_hold_no_spans(fixtures: Path, tmp_path: Path):
    (tmp_path / "pred.text").write_text((fixtures / "mini.text").read_text())  # no .phrase beside it
    result = runner.invoke(app, ["evaluate", str(fixtures / "mini.text"), str(tmp_path / "pred.text"), "--json"])
    assert result.exit_code == 0
    assert "predictions hold no spans" in result.stderr
    assert json.loads(result.stdout)["binary_token"]["recall"] == 0.0


def test_evaluate_physionet_with_separate_annotation_file(fixtures: Path, tmp_path: Path):
    # the same .text, predictions in another .phrase holding only its first 5 of 10 lines:
    # 67, 3/14, Mercy, Hospital, Anna -> binary TP 5, FN 5
    lines = (fixtures / "mini.phrase").read_text().splitlines(keepends=True)
    (tmp_path / "run.phrase").write_text("".join(lines[:5]))
    text = str(fixtures / "mini.text")
    result = runner.invoke(app, ["evaluate", text, text, "--pred-annotations", str(tmp_path / "run.phrase"), "--json"])
    assert result.exit_code == 0, result.output
    binary = json.loads(result.stdout)["binary_token"]
    assert (binary["tp"], binary["fp"], binary["fn"]) == (5, 0, 5)


def test_evaluate_bootstrap_gives_patient_intervals(fixtures: Path, tmp_path: Path):
    pred = _without(fixtures, tmp_path, {("1_1", 43), ("1_1", 73)})
    args = ["evaluate", str(fixtures / "mini.text"), str(pred), "--json", "--bootstrap", "200"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    ci = data["bootstrap"]
    assert ci["group_by"] == "patient" and ci["resamples"] == 200
    low, high = ci["binary_token_recall"]
    assert low <= data["binary_token"]["recall"] <= high and low < 1.0
    tables = runner.invoke(app, ["evaluate", str(fixtures / "mini.text"), str(pred), "--bootstrap", "200"])
    assert "95% intervals (200 resamples of" in tables.output
    assert "bootstrap" not in json.loads(runner.invoke(app, args[:-2]).output)
