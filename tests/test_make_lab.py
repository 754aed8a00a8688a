"""`make lab` as a newcomer runs it: JupyterLab starts without a warning in its log and serves the first tutorial
with the news and announcements plugin turned off (no pop-up asking about Jupyter news)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(sys.prefix)

pytestmark = pytest.mark.skipif(shutil.which("make") is None or not (VENV / "bin" / "jupyter-lab").exists(),
                                reason="needs make and JupyterLab (the lab extra)")


def wait_until_listening(port: int, server: subprocess.Popen[str]) -> None:
    """Until the port takes connections: the server binds it once its loop runs, after its "running" lines."""
    deadline = time.monotonic() + 60
    while server.poll() is None and time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on port {port} (server exit status: {server.poll()})")


def test_make_lab_starts_without_warnings_and_without_the_news_pop_up(tmp_path: Path) -> None:
    installed = tmp_path / "installed"
    installed.touch()  # newer than pyproject.toml: `make` installs nothing, it runs this environment's JupyterLab
    environment = {**os.environ, "BROWSER": "true", "JUPYTER_CONFIG_DIR": str(tmp_path / "user-config"),
                   "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    server = subprocess.Popen(["make", "--no-print-directory", "-C", str(ROOT), "lab", f"VENV={VENV}",
                               f"INSTALLED={installed}", "PORT=0", "LAB_LOG_LEVEL=INFO"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment,
                              start_new_session=True)
    guard = threading.Timer(120, os.killpg, (server.pid, signal.SIGKILL))  # a hung start fails, never blocks
    guard.start()
    lines: list[str] = []
    try:
        assert server.stdout is not None
        for line in server.stdout:  # up to the address the server prints after "is running at"
            lines.append(line.rstrip())
            if any("is running at" in seen for seen in lines) and re.search(r"http://127\.0\.0\.1:[1-9]", line):
                break
        printed = next((found for line in lines
                        if (found := re.search(r"http://127\.0\.0\.1:(\d+)/(lab/tree/00_welcome\.ipynb\?token=\w+)", line))),
                       None)
        running = re.search(r"http://127\.0\.0\.1:(\d+)/", lines[-1])
        assert printed is not None and running is not None, "\n".join(lines)
        port = int(running.group(1))  # PORT=0: the system chose a free port; the printed link names PORT as given
        assert printed.group(1) == "0"
        link = f"http://127.0.0.1:{port}/{printed.group(2)}"
        wait_until_listening(port, server)
        with urllib.request.urlopen(link, timeout=30) as page:
            html = page.read().decode()
        config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                      html, re.S).group(1))  # type: ignore[union-attr]
        assert "@jupyterlab/apputils-extension:announcements" in config["disabledExtensions"]
        if any("jupyter_lsp | extension was successfully loaded" in line for line in lines):
            for line in server.stdout:  # its start hook, the last to run, looks for language servers
                lines.append(line.rstrip())
                if "Skipped non-installed server(s)" in line or "language server" in line.lower():
                    break
    finally:
        started = len(lines)
        os.killpg(server.pid, signal.SIGTERM)
        rest, _ = server.communicate(timeout=60)
        guard.cancel()
    lines += rest.splitlines()
    warnings = [line for line in lines[:started]
                if re.match(r"\[[WEC] ", line) or "Warning" in line or "WARNING" in line]
    assert warnings == [], "\n".join(lines)
    assert any(line.startswith("[I ") for line in lines)  # the log was read at the level that shows warnings
