"""The code follows the project's lint rules (ruff, configured in pyproject.toml).

Run the same way here and in CI: ``python -m ruff check .`` at the
repository's root; a finding fails the suite with ruff's own report.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache",
                           "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
