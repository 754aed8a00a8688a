"""Real pages in a real browser: Voila and JupyterLab servers on 127.0.0.1, driven by Python playwright in
Debian's chromium (a browser downloaded by playwright does not work on our machines).

Every server is started in its own process group and killed with it when the test ends, passing or failing;
the browser is closed by its fixture. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium")
BIN = Path(sys.executable).parent
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, process: subprocess.Popen[bytes], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"no answer from {url} in {seconds} s")


class Server:
    """A server process in its own process group, stopped with all its children."""

    def __init__(self, command: list[str], cwd: Path, log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log.open("wb")
        self.process = subprocess.Popen(command, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True, env={**os.environ, **(env or {})})

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        self.log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


@pytest.fixture(scope="session")
def notebook_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the notebooks, so servers that autosave never touch the stored tutorials."""
    target = tmp_path_factory.mktemp("notebooks") / "notebooks"
    shutil.copytree(NOTEBOOKS, target)
    return target


@pytest.fixture(scope="session")
def voila(notebook_copy: Path) -> Iterator[str]:
    """A Voila server over the notebooks, serving any of them at {url}/voila/render/<path>."""
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    server = Server([str(BIN / "voila"), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
                     "--Voila.root_dir=.", "--ServerApp.allow_root=True"], notebook_copy,
                    ARTIFACTS / "voila.log")
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for(url, server.process)
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def lab(notebook_copy: Path) -> Iterator[str]:
    """A JupyterLab server over the notebook copy, without a token (it listens on 127.0.0.1 only)."""
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    settings = notebook_copy.parent / "lab-settings"
    # Render every cell (no windowing) so the test sees all outputs; no news pop-up over the page.
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True, exist_ok=True)
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}')
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True, exist_ok=True)
    (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    server = Server([str(BIN / "jupyter"), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                     "--allow-root", "--IdentityProvider.token=", "--ServerApp.password=",
                     f"--ServerApp.root_dir={notebook_copy}", "--LabApp.news_url=None",
                     "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"], notebook_copy,
                    ARTIFACTS / "lab.log", env={"JUPYTERLAB_SETTINGS_DIR": str(settings)})
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for(f"{url}/api/status", server.process)
        yield url
    finally:
        server.stop()


@pytest.fixture()
def screenshot(page: object) -> Callable[[str], Path]:
    """Save a full-page screenshot of the test's page as test-artifacts/<name>.png."""
    def shoot(name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
        return path
    return shoot
