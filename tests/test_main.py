"""``python -m deident``: importing the module (as a spawned worker does, under the name __mp_main__) runs nothing."""

from __future__ import annotations

import os
import subprocess
import sys


def test_importing_the_main_module_does_not_run_the_command() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    imported = subprocess.run(
        [sys.executable, "-c", "import deident.__main__"], capture_output=True, text=True, env=env, timeout=120
    )
    assert imported.returncode == 0 and imported.stdout == "" and imported.stderr == "", imported.stderr
