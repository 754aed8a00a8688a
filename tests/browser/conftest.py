"""Real pages in a real browser: Voila and JupyterLab servers on 127.0.0.1, driven by Python playwright in
Debian's chromium (a browser downloaded by playwright does not work on our machines).

Servers start on port 0: the system gives them a free port as they bind, so no port is picked by luck. The
fixtures read the port back once the server says it runs (JupyterLab prints its URL; Voila prints port 0, so
its listening socket is read from the system), waiting on the server's own output line by line: no sleep.
Every server runs in its own process group, killed with it when the test session ends, passing or failing;
the browser is closed by its fixture. Screenshots go to test-artifacts/.

Every page records the requests it makes: `offline_requests(page)` lists those that left 127.0.0.1.
`axe_violations(page, axe)` runs axe-core (the npm package, pinned: `AXE_VERSION`, fetched once by npm into
build/cache) on a page with the WCAG 2.2 AA rules and `target-size`, and returns what it finds by impact.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
VOILA_TEMPLATES = ROOT / "tabletop_edu" / "widgets" / "jupyter_data"
CHROMIUM = os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium")
BIN = Path(sys.executable).parent
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
START_TIMEOUT = 120.0
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: axe-core, the accessibility engine the browser tests inject into pages: pinned, as the site pins Pyodide.
AXE_VERSION = "4.10.3"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
NPM_CACHE = ROOT / "build" / "cache" / "npm"


class Server:
    """A server process in its own process group, its output copied to `log` line by line.

    `wait_for_line(pattern)` blocks until a line of output matches (or the server stops, or the time is up):
    the server's own word that it listens, rather than polling a port."""

    def __init__(self, command: list[str], cwd: Path, log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log.open("w", encoding="utf-8")
        self.process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        start_new_session=True, text=True, env={**os.environ, **(env or {})})
        self._lines: list[str] = []
        self._changed = threading.Condition()
        assert self.process.stdout is not None
        self._reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self._reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.log.write(line)
            self.log.flush()
            with self._changed:
                self._lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for_line(self, pattern: str, timeout: float = START_TIMEOUT) -> re.Match[str]:
        regex = re.compile(pattern)

        def found() -> re.Match[str] | None:
            return next((match for line in self._lines if (match := regex.search(line))), None)

        with self._changed:
            self._changed.wait_for(lambda: found() is not None or not self._reader.is_alive(), timeout=timeout)
            match = found()
        if match is None:
            state = "stopped" if self.process.poll() is not None else f"said nothing like it in {timeout} s"
            raise RuntimeError(f"the server {state} (waiting for /{pattern}/): see {self.log.name}")
        return match

    def listening_port(self) -> int:
        """The one TCP port the server process itself listens on (its kernels are other processes)."""
        ports = {connection.laddr.port for connection in psutil.Process(self.process.pid).net_connections("tcp")
                 if connection.status == psutil.CONN_LISTEN}
        if len(ports) != 1:
            raise RuntimeError(f"expected the server to listen on one port, found {sorted(ports)}")
        return ports.pop()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        self._reader.join(timeout=15)
        self.log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module: playwright's event loop counts as running in this thread while it is
    open, so it is closed before the tests of other directories (asyncio code, timed bots) run."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    """A fresh page at a projector's size, recording every request it makes (see `offline_requests`)."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.requests = []  # type: ignore[attr-defined]
    page.on("request", lambda request: page.requests.append(request.url))  # type: ignore[attr-defined]
    yield page
    context.close()


def offline_requests(page: Any) -> list[str]:
    """The requests of `page` that left the machine: anything but 127.0.0.1 and inline data."""
    local = re.compile(r"^(https?|wss?)://127\.0\.0\.1(:\d+)?/|^(data|blob|about):")
    return [url for url in page.requests if not local.match(url)]


def server_log(name: str) -> Path:
    """Where a session's server writes its log: one file per pytest-xdist worker (`make test` runs two, and each
    starts the servers its test files need)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return ARTIFACTS / (f"{name}-{worker}.log" if worker else f"{name}.log")


@pytest.fixture(scope="session")
def notebook_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the notebooks, so servers that autosave never touch the stored tutorials."""
    target = tmp_path_factory.mktemp("notebooks") / "notebooks"
    shutil.copytree(NOTEBOOKS, target)
    return target


@pytest.fixture(scope="session")
def voila(notebook_copy: Path) -> Iterator[str]:
    """A Voila server over the notebooks with our classroom template (as `make classroom` runs it), serving
    any notebook at {url}/voila/render/<path>."""
    ARTIFACTS.mkdir(exist_ok=True)
    server = Server([str(BIN / "voila"), "--no-browser", "--port=0", "--Voila.port_retries=0",
                     "--Voila.ip=127.0.0.1", "--Voila.root_dir=.", "--ServerApp.allow_root=True",
                     "--template=tabletop", "--theme=light"], notebook_copy, server_log("voila"),
                    env={"JUPYTER_PATH": str(VOILA_TEMPLATES)})
    try:
        server.wait_for_line(r"Voil. is running at")
        yield f"http://127.0.0.1:{server.listening_port()}"
    finally:
        server.stop()


@pytest.fixture(scope="session")
def lab(notebook_copy: Path) -> Iterator[str]:
    """A JupyterLab server over the notebook copy, without a token (it listens on 127.0.0.1 only)."""
    ARTIFACTS.mkdir(exist_ok=True)
    settings = notebook_copy.parent / "lab-settings"
    # Render every cell (no windowing) so the test sees all outputs; no news pop-up over the page.
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True, exist_ok=True)
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}')
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True, exist_ok=True)
    (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    server = Server([str(BIN / "jupyter"), "lab", "--no-browser", "--port=0", "--ServerApp.port_retries=0",
                     "--ip=127.0.0.1", "--allow-root", "--IdentityProvider.token=", "--ServerApp.password=",
                     f"--ServerApp.root_dir={notebook_copy}", "--LabApp.news_url=None",
                     "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"], notebook_copy,
                    server_log("lab"), env={"JUPYTERLAB_SETTINGS_DIR": str(settings)})
    try:
        match = server.wait_for_line(r"(http://127\.0\.0\.1:\d+)/lab")
        yield match.group(1)
    finally:
        server.stop()


def dashboard_notebook(folder: Path, url: str, token: str, code: str) -> str:
    """A notebook with the teacher's dashboard of `code` (the server runs as its own process)."""
    cells = [
        "from tabletop_edu import classroom\n"
        f"room = classroom.connect({url!r}, {token!r}).dashboard({code!r}, language='fr')\n"
        "room",
    ]
    notebook = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                           "source": cell} for cell in cells],
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    name = f"dashboard-{code}.ipynb"
    (folder / name).write_text(json.dumps(notebook), encoding="utf-8")
    return name


@pytest.fixture()
def lab_dashboard(lab: str, notebook_copy: Path) -> Callable[[Any, str, str, str], Any]:
    """`open(page, url, token, code)`: the teacher's dashboard of a room (French), run in JupyterLab on `page`;
    returns its locator."""
    def open_dashboard(page: Any, url: str, token: str, code: str) -> Any:
        path = dashboard_notebook(notebook_copy, url, token, code)
        page.goto(f"{lab}/lab/workspaces/{path.replace('.', '-')}/tree/{path}?reset")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        page.get_by_text("| Idle").wait_for(timeout=90_000)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        return page.locator(".classroom-dashboard")
    return open_dashboard


@pytest.fixture()
def screenshot(page: Any) -> Callable[..., Path]:
    """Save a full-page screenshot of the test's page as test-artifacts/<name>.png (at `viewport` if given,
    then back to the projector's size)."""
    def shoot(name: str, viewport: dict[str, int] | None = None) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        if viewport is not None:
            page.set_viewport_size(viewport)
        try:
            page.screenshot(path=str(path), full_page=True)
        finally:
            if viewport is not None:
                page.set_viewport_size(DESKTOP)
        return path
    return shoot


@pytest.fixture(scope="session")
def axe() -> str:
    """The text of axe-core's `axe.min.js` at `AXE_VERSION`: `npm pack` fetches the package once into
    build/cache (as `make site` does Pyodide), unpacked in a folder of its own and renamed into place whole, so
    two pytest workers never read half a file."""
    unpacked = NPM_CACHE / f"axe-core-{AXE_VERSION}"
    script = unpacked / "axe.min.js"
    if not script.exists():
        NPM_CACHE.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=NPM_CACHE))
        subprocess.run(["npm", "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", str(staging), "--silent"],
                       check=True, stdout=subprocess.DEVNULL)
        with tarfile.open(staging / f"axe-core-{AXE_VERSION}.tgz") as tarball:
            tarball.extractall(staging, filter="data")
        try:
            (staging / "package").rename(unpacked)
        except OSError:  # the other worker put it in place first
            shutil.rmtree(staging / "package")
        shutil.rmtree(staging)
    return script.read_text(encoding="utf-8")


def axe_violations(page: Any, axe: str) -> dict[str, list[str]]:
    """What axe-core finds on `page` against WCAG 2.2 AA (and `target-size`), by impact ("critical",
    "serious", "moderate", "minor"): one readable line per rule and element. The page's context needs
    `bypass_csp=True`: the class pages allow no inline script, and axe is injected as one."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    found = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
                          " rules: {'target-size': {enabled: true}}, resultTypes: ['violations']})"
                          ".then(result => result.violations.map(rule => ({id: rule.id, impact: rule.impact,"
                          " help: rule.help, nodes: rule.nodes.map(node => ({target: node.target.join(' '),"
                          " summary: node.failureSummary}))})))", AXE_TAGS)
    by_impact: dict[str, list[str]] = {}
    for rule in found:
        for node in rule["nodes"]:
            summary = " ".join((node["summary"] or "").split())
            by_impact.setdefault(rule["impact"] or "minor", []).append(
                f"{rule['id']} ({rule['help']}) at {node['target']}: {summary}")
    return by_impact
