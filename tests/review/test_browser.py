"""The review page in a real headless Chromium (Debian's chromium and chromium-driver, driven by Selenium)."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("selenium")
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from typer.testing import CliRunner

from deident.cli.app import app as cli_app
from deident.cli.review_cmd import allowed_hosts, build_server, free_port
from deident.core.labels import Label
from deident.core.span import Span
from deident.io.jsonl import write_jsonl
from deident.review.app import ReviewConfig, create_review_app
from deident.review.corrections import CorrectionLog
from deident.review.session import ReviewSession, load_notes
from tests.review.conftest import NOTE_A, invented_notes

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None, reason="needs Debian's chromium and chromium-driver"
)


def start_server(notes_file: Path, output: Path, log: Path) -> Iterator[str]:
    session = ReviewSession(load_notes(notes_file, None, notes_file), CorrectionLog(log), "ann")
    port = free_port("127.0.0.1")
    token = "browser-test-token"
    app = create_review_app(session, ReviewConfig(output, None, token, allowed_hosts("127.0.0.1")))
    server = build_server(app, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the review server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/?token={token}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def chromium_driver(width: int = 1280, height: int = 800) -> object:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    return webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER), options=options)


@pytest.fixture
def browser() -> Iterator[object]:
    driver = chromium_driver()
    try:
        yield driver
    finally:
        driver.quit()


def _marks(driver) -> dict[str, str]:
    """Label -> text of the highlighted spans, read in one script (the page re-renders after each action)."""
    script = (
        "return Array.from(document.querySelectorAll('#note mark.span')).map((m) => [m.dataset.label, m.textContent]);"
    )
    return dict(driver.execute_script(script))


def _wait_for(driver, condition, what: str) -> None:
    WebDriverWait(driver, 15).until(lambda d: condition(d), message=what)


SELECT_TEXT = """
const [phrase] = arguments;
const pre = document.getElementById('note');
const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
let node;
while ((node = walker.nextNode())) {
  const at = node.textContent.indexOf(phrase);
  if (at >= 0) {
    const range = document.createRange();
    range.setStart(node, at); range.setEnd(node, at + phrase.length);
    const selection = window.getSelection();
    selection.removeAllRanges(); selection.addRange(range);
    pre.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
    return true;
  }
}
return false;
"""


def test_review_page_end_to_end(tmp_path, notes_file, browser):
    output = tmp_path / "corrected.jsonl"
    log = tmp_path / "corrections.jsonl"
    for url in start_server(notes_file, output, log):
        browser.get(url)
        _wait_for(browser, lambda d: "DOCTOR" in _marks(d), "the note's spans")
        assert _marks(browser) == {"DOCTOR": "Kowalski", "DATE": "3/14/2019", "CITY": "Mercy"}
        # reject a span
        browser.find_element(By.CSS_SELECTOR, "mark[data-label=DOCTOR]").click()
        browser.find_element(By.ID, "reject").click()
        _wait_for(browser, lambda d: "DOCTOR" not in _marks(d), "the rejected span to go")
        # add one by selecting its text
        assert browser.execute_script(SELECT_TEXT, "617-555-0143")
        _wait_for(browser, lambda d: d.find_element(By.ID, "selection-info").text.startswith("["), "the selection")
        Select(browser.find_element(By.ID, "add-label")).select_by_value("PHONE")
        browser.find_element(By.ID, "add").click()
        _wait_for(browser, lambda d: "PHONE" in _marks(d), "the added span")
        # relabel one
        browser.find_element(By.CSS_SELECTOR, "mark[data-label=CITY]").click()
        Select(browser.find_element(By.ID, "relabel-label")).select_by_value("HOSPITAL")
        browser.find_element(By.ID, "relabel").click()
        _wait_for(browser, lambda d: "HOSPITAL" in _marks(d), "the relabelled span")
        # reload: the corrections are kept
        browser.refresh()
        _wait_for(browser, lambda d: "HOSPITAL" in _marks(d), "the note after a reload")
        assert _marks(browser) == {"DATE": "3/14/2019", "HOSPITAL": "Mercy", "PHONE": "617-555-0143"}
        # export, and `deident evaluate` reads the export
        browser.find_element(By.ID, "export").click()
        _wait_for(browser, lambda d: "exported" in d.find_element(By.ID, "status").text, "the export")
    assert len(log.read_text().splitlines()) == 3
    gold = tmp_path / "gold.jsonl"
    expected = {"DATE": "3/14/2019", "HOSPITAL": "Mercy", "PHONE": "617-555-0143"}
    spans = tuple(Span(NOTE_A.index(t), NOTE_A.index(t) + len(t), Label(k)) for k, t in expected.items())
    notes = invented_notes()
    write_jsonl([notes[0].with_spans(spans), notes[1]], gold)
    result = CliRunner().invoke(cli_app, ["evaluate", str(gold), str(output), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["documents"]["gold"] == 2
    # the export holds exactly the corrected spans: typed token scores against them are perfect
    assert report["typed_token"]["precision"] == report["typed_token"]["recall"] == 1.0
    assert report["documents"]["pred_spans"] == 5


def test_keyboard_actions(tmp_path, notes_file, browser):
    from selenium.webdriver.common.keys import Keys

    log = tmp_path / "corrections.jsonl"
    for url in start_server(notes_file, tmp_path / "out.jsonl", log):
        browser.get(url)
        _wait_for(browser, lambda d: "DOCTOR" in _marks(d), "the note's spans")
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)  # the first span: Kowalski
        _wait_for(browser, lambda d: d.find_element(By.ID, "span-label").text == "DOCTOR", "the selected span")
        body.send_keys("a")
        _wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "mark.accepted"), "the accepted span")
        body.send_keys("]")  # widen at the end: "Kowalski " then narrowed back with "}"
        _wait_for(browser, lambda d: _marks(d).get("DOCTOR") == "Kowalski ", "the widened span")
        body.send_keys("}")
        _wait_for(browser, lambda d: _marks(d).get("DOCTOR") == "Kowalski", "the narrowed span")
        body.send_keys("u")  # the uncertain span (filter p 0.42 against t 0.50)
        _wait_for(browser, lambda d: d.find_element(By.ID, "span-label").text == "CITY", "the uncertain span")
        body.send_keys("x")
        _wait_for(browser, lambda d: "CITY" not in _marks(d), "the rejected span")
        body.send_keys("n")
        _wait_for(browser, lambda d: "note-b" in d.find_element(By.ID, "note-id").text, "the next note")
    actions = [json.loads(line)["action"] for line in log.read_text().splitlines()]
    assert actions == ["accept", "resize", "resize", "reject"]
