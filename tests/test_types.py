"""The package type-checks: `mypy tabletop_edu` (configured in pyproject.toml) finds no error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "tabletop_edu", "--cache-dir", str(tmp_path / "mypy")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"mypy tabletop_edu:\n{done.stdout}{done.stderr}"
