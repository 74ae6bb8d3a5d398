"""Running de-identification over corpora: chunked, resumable, with a report."""

from deident.run.report import RunReport
from deident.run.runner import RunConfig, run

__all__ = ["RunConfig", "RunReport", "run"]
