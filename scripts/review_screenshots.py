"""Screenshots of the review page for the README, on invented notes, in Debian's headless Chromium.

    PYTHONPATH=src python scripts/review_screenshots.py [--out docs]

Writes review-page.png (a note with its spans, legend and residual-risk list) and review-span.png (a span
selected: the explanation panel). The notes are invented; detection is the bundled default pipeline.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import threading
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from deident.api import Deidentifier
from deident.cli.review_cmd import allowed_hosts, build_server, free_port
from deident.core.document import AnnotatedDocument, Document, DocumentMetadata
from deident.io.jsonl import write_jsonl
from deident.review.app import ReviewConfig, create_review_app
from deident.review.corrections import CorrectionLog
from deident.review.session import ReviewSession, load_notes

# Invented notes: no real person, place or number.
NOTES = (
    "Nursing progress note 0700-1900\n\n"
    "Pt is a 67 yo man admitted 3/14/2094 from Mercy Hospital after a fall at home in Fairview.\n"
    "Seen by Dr. Kowalski and Dr. Abernathy-Reyes this am; plan to wean O2 as tolerated.\n"
    "Wife Greta Lindqvist at bedside, updated on plan; she can be reached at 617-555-0143.\n"
    "Neuro: alert, oriented x3, MAE. CV: HR 80s SR, BP 120/70. Resp: LS clear, sats 96% on 2L NC.\n"
    "Social: retired machinist, lives with wife. MRN 40213377 confirmed with Quarrington in admitting.\n",
    "Pt resting comfortably overnight. Daughter Marisol called at 2200, questions answered.\n"
    "Follow up with Dr. Okonkwo in clinic on 4/2/2094.\n",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        notes_file = Path(tmp) / "notes.jsonl"
        docs = [
            AnnotatedDocument(Document(f"note-{i + 1}", text, DocumentMetadata(patient_id="1")))
            for i, text in enumerate(NOTES)
        ]
        write_jsonl(docs, notes_file)
        notes = load_notes(notes_file, Deidentifier.load())
        session = ReviewSession(notes, CorrectionLog(Path(tmp) / "log.jsonl"), "reviewer")
        port = free_port("127.0.0.1")
        token = "screenshot"
        config = ReviewConfig(Path(tmp) / "out.jsonl", None, token, allowed_hosts("127.0.0.1"))
        server = build_server(create_review_app(session, config), "127.0.0.1", port)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,760"):
            options.add_argument(argument)
        service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "chromedriver")
        driver = webdriver.Chrome(service=service, options=options)
        try:
            driver.get(f"http://127.0.0.1:{port}/?token={token}")
            WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#note mark.span"))
            driver.save_screenshot(str(args.out / "review-page.png"))
            driver.find_elements(By.CSS_SELECTOR, "#note mark.span")[2].click()
            driver.save_screenshot(str(args.out / "review-span.png"))
        finally:
            driver.quit()
            server.should_exit = True
            thread.join(timeout=10)


if __name__ == "__main__":
    main()
