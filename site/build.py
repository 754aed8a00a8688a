"""`make site`: the play tutorials as a static JupyterLite site (Pyodide in the browser, no server, issue 21).

Everything the site needs is put inside it at build time, from the registries only, so that the browser never
fetches anything from elsewhere than the site itself:

- the Pyodide runtime from the npm package `pyodide` (its tarball holds the runtime and the lock file, not the
  packages Pyodide usually fetches from its CDN);
- those packages (micropip, IPython and its dependencies, Jinja2...) as pure-Python wheels from PyPI, next to the
  runtime, with the lock file rewritten to point at them and to hold nothing else (MarkupSafe has no pure wheel on
  PyPI: it is built from its sdist without its optional C speedups);
- the kernel and the JupyterLite app from the PyPI packages `jupyterlite-core` and `jupyterlite-pyodide-kernel`,
  the widgets' front end from `jupyterlab_widgets`' labextension;
- our wheel, built from the checkout, with ipywidgets and comm, in piplite's index (PyPI fallback disabled);
- copies of the welcome notebook and each game's play tutorials (English and French), without their stored
  outputs, each opened by a `%pip install tabletop_edu` cell that piplite resolves from the site's own index.

Downloads are cached under build/cache; the site is written to build/site (`python site/build.py --help`).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
BUILD = ROOT / "build"
CACHE = BUILD / "cache"
OUTPUT = BUILD / "site"

# jupyterlite-pyodide-kernel 0.8.6 (the newest whose jupyterlite-core is on PyPI) is built for this Pyodide.
PYODIDE_VERSION = "314.0.6"
PYODIDE_PYTHON = "3.14"
# What the kernel loads from the lock file (micropip, then IPython and Jedi through piplite), with our own needs.
LOCK_ROOTS = ("micropip", "ipython", "jedi", "jinja2", "markupsafe", "tqdm", "traitlets", "typing-extensions")
# Requirements the lock file leaves out: IPython 9 needs ipython-pygments-lexers (not in Pyodide's lock).
LOCK_ADDITIONS = {"ipython-pygments-lexers": ("ipython", "1.1.1", "pygments")}
# Built from their sdist as pure Python: the C speedups are optional and Pyodide's wheel is not on PyPI.
PURE_FROM_SDIST = {"markupsafe"}
# Through piplite's index: what our wheel needs beyond the lock, and networkx (pure Python: the welcome's
# information-flow graph), at the versions the build's own Jupyter runs.
PIPLITE_PACKAGES = ("ipywidgets", "comm", "jupyterlab_widgets", "networkx")
# The runtime files a page loads (the npm package also has typings, source maps and demo consoles).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "package.json")
# The site's tutorials, with what each installs besides tabletop_edu.
SITE_NOTEBOOKS = {"00_welcome.ipynb": ("networkx",),
                  **{f"{game}/{name}.ipynb": () for game in ("commissario", "get_adler", "mafia_de_cuba")
                     for name in ("01_play", "01_jouer")}}
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
WIDGETS_EXTENSION = Path(sys.prefix) / "share/jupyter/labextensions/@jupyter-widgets/jupyterlab-manager"
KERNEL_EXTENSION = Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension"


def run(command: list[str], cwd: Path | None = None) -> None:
    """Run a build step, its output shown; a failing step stops the build with its own message."""
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def canonical(name: str) -> str:
    """The PEP 503 name: the lock file writes `prompt_toolkit` in one place and `prompt-toolkit` in another."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pyodide_runtime() -> Path:
    """The npm package `pyodide`, unpacked once into the cache (npm fetches it from the npm registry)."""
    unpacked = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if (unpacked / "pyodide-lock.json").exists():
        return unpacked
    download = CACHE / "npm"
    download.mkdir(parents=True, exist_ok=True)
    run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(download), "--silent"])
    with tarfile.open(download / f"pyodide-{PYODIDE_VERSION}.tgz") as tarball:
        staging = Path(tempfile.mkdtemp(dir=CACHE))
        tarball.extractall(staging, filter="data")
    (staging / "package").rename(unpacked)
    staging.rmdir()
    return unpacked


def download_wheel(name: str, version: str, into: Path) -> Path:
    """One pure-Python wheel from PyPI (cached): `name==version`, or built from its sdist for PURE_FROM_SDIST."""
    into.mkdir(parents=True, exist_ok=True)
    for path in into.glob("*.whl"):
        project, wheel_version = path.name.split("-")[:2]
        if canonical(project) == canonical(name) and wheel_version == version:
            return path
    requirement = f"{name}=={version}"
    if canonical(name) in PURE_FROM_SDIST:
        return pure_wheel_from_sdist(name, version, into)
    run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
         "--python-version", PYODIDE_PYTHON, "--platform", "any", "--dest", str(into), requirement])
    return download_wheel(name, version, into)


def pure_wheel_from_sdist(name: str, version: str, into: Path) -> Path:
    """A py3-none-any wheel of a package whose compiled part is optional: its sdist's Python files only."""
    with tempfile.TemporaryDirectory() as scratch:
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary=:all:",
             "--dest", scratch, f"{name}=={version}"])
        (sdist,) = Path(scratch).glob("*.tar.gz")
        with tarfile.open(sdist) as tarball:
            tarball.extractall(scratch, filter="data")
        (package,) = Path(scratch).glob(f"*/src/{canonical(name).replace('-', '_')}")
        project = Path(scratch) / "pure"
        shutil.copytree(package, project / package.name, ignore=shutil.ignore_patterns("*.c"))
        (project / "pyproject.toml").write_text(
            f'[build-system]\nrequires = ["setuptools>=77"]\nbuild-backend = "setuptools.build_meta"\n'
            f'[project]\nname = "{canonical(name)}"\nversion = "{version}"\n'
            f'[tool.setuptools.package-data]\n"*" = ["*.pyi", "py.typed"]\n')
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
             "--wheel-dir", str(into), str(project)])
    return download_wheel(name, version, into)


def lock_closure(packages: dict[str, dict], roots: Iterable[str]) -> list[str]:
    """The lock's packages `roots` need, through the lock's own `depends` (names made canonical)."""
    wanted: list[str] = []
    todo = [canonical(root) for root in roots]
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        if name not in packages:
            raise SystemExit(f"Pyodide {PYODIDE_VERSION}'s lock file has no package {name!r}")
        wanted.append(name)
        todo.extend(canonical(dependency) for dependency in packages[name]["depends"])
    return sorted(wanted)


def pyodide_folder(target: Path) -> None:
    """The runtime and a lock file listing only the wheels put beside it, each with its checksum."""
    runtime = pyodide_runtime()
    target.mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copy2(runtime / name, target / name)
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    packages = {canonical(name): entry for name, entry in lock["packages"].items()}
    for name, (dependent, version, *depends) in LOCK_ADDITIONS.items():
        packages[name] = {"name": name, "version": version, "depends": depends, "imports": [name.replace("-", "_")],
                          "package_type": "package", "install_dir": "site", "unvendored_tests": False}
        packages[dependent]["depends"] = [*packages[dependent]["depends"], name]
    kept = {}
    for name in lock_closure(packages, LOCK_ROOTS):
        wheel = download_wheel(name, packages[name]["version"], CACHE / "wheels")
        if not wheel.name.endswith("-none-any.whl"):
            raise SystemExit(f"{wheel.name} is not pure Python: it cannot come from PyPI for Pyodide")
        shutil.copy2(wheel, target / wheel.name)
        kept[name] = {**packages[name], "file_name": wheel.name, "sha256": sha256(wheel),
                      "depends": [canonical(dependency) for dependency in packages[name]["depends"]]}
    lock["packages"] = kept
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1))


def piplite_wheels(target: Path) -> None:
    """Our wheel, built from the checkout, and ipywidgets with comm at the versions the build runs."""
    target.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:  # setuptools writes its egg-info beside the sources it builds
        source = Path(scratch) / "tabletop_edu"
        shutil.copytree(ROOT / "tabletop_edu", source / "tabletop_edu",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            shutil.copy2(ROOT / name, source / name)
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(target), str(source)])
    for name in PIPLITE_PACKAGES:
        shutil.copy2(download_wheel(name, importlib.metadata.version(name), CACHE / "wheels"), target)


def site_notebook(source: Path, also: tuple[str, ...]) -> dict:
    """A tutorial as the site serves it: outputs dropped (they load faster and are made again), the install cell
    first."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    command = " ".join(("%pip install tabletop_edu", *also))
    source = f"{command}\n# ↑ installs the games from this site's own files (nothing is fetched from the internet)"
    install = {"cell_type": "code", "execution_count": None, "id": "install-tabletop-edu", "metadata": {},
               "outputs": [], "source": source.splitlines(keepends=True)}
    notebook["cells"].insert(0, install)
    notebook["metadata"]["kernelspec"] = {"display_name": "Python (Pyodide)", "language": "python",
                                          "name": "python"}
    return notebook


def contents(target: Path) -> None:
    for relative, also in SITE_NOTEBOOKS.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(site_notebook(NOTEBOOKS / relative, also), indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")


def lite_settings() -> dict:
    """jupyter-lite.json: piplite looks only in the site's index (the kernel addon adds it and the runtime URL)."""
    return {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "tabletop_edu", "disabledExtensions": ["@jupyterlab/apputils-extension:announcements"],
        "litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}}}}


# Every cell rendered (no windowing): a table scrolled out of view keeps its state, and searching finds any output.
SETTINGS_OVERRIDES = {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}


def build(output: Path) -> None:
    """Write the whole site into `output` (replaced), from a scratch lite folder under build/."""
    BUILD.mkdir(exist_ok=True)
    lite = BUILD / "site-src"
    shutil.rmtree(lite, ignore_errors=True)
    shutil.rmtree(output, ignore_errors=True)
    pyodide_folder(lite / "static" / "pyodide")  # the kernel addon's well-known place: it points the kernel at it
    piplite_wheels(lite / "wheels")
    contents(lite / "files")
    (lite / "jupyter-lite.json").write_text(json.dumps(lite_settings(), indent=1))
    (lite / "overrides.json").write_text(json.dumps(SETTINGS_OVERRIDES, indent=1))
    config = {"LiteBuildConfig": {"apps": ["lab", "notebooks", "tree"], "contents": ["files"],
                                  "ignore_sys_prefix": True, "no_sourcemaps": True,
                                  "federated_extensions": [str(WIDGETS_EXTENSION), str(KERNEL_EXTENSION)],
                                  "output_dir": str(output)},
              "PipliteAddon": {"piplite_urls": ["wheels"]}}
    (lite / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1))
    run([str(Path(sys.executable).parent / "jupyter"), "lite", "build", "--lite-dir", str(lite)], cwd=lite)
    (output / ".nojekyll").touch()  # GitHub Pages serves the folder as it is


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="where the site goes (default build/site)")
    build(parser.parse_args(argv).output)


if __name__ == "__main__":
    main()
