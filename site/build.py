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
  outputs nor their saved widget state, each opened by a `%pip install tabletop_edu` cell that piplite resolves
  from the site's own index and by a note on where the student's edits are kept; the rules (`seeds/*.md`) they
  cite; every file a tutorial names is a link into the site, and what the site leaves out is said so;
- an entry page (the site's `index.html`) linking each tutorial in JupyterLite's one-notebook view, which a
  phone shows whole (JupyterLab's, under `lab/`, keeps its side panels).

Storage: JupyterLite keeps a student's edited copy of a notebook in the browser, and that copy hides the file the
site serves. The contents are stored under a name made from the tutorials' own digest, so a teacher's changed
lesson is a new store that every student opens fresh; a student keeps their own version by saving it under
another name (kept until the lessons change) or by downloading it.

Downloads are cached under build/cache; the site is written to build/site (`python site/build.py --help`).
"""

from __future__ import annotations

import argparse
import hashlib
import html
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
GAMES = ("commissario", "get_adler", "mafia_de_cuba")
SITE_NOTEBOOKS = {"00_welcome.ipynb": ("networkx",),
                  **{f"{game}/{name}.ipynb": () for game in GAMES for name in ("01_play", "01_jouer")}}
#: The rules each play tutorial cites ("Rules in full: `seeds/commissario.md`"), at the same place in the site.
SITE_RULES = tuple(f"seeds/{game}.md" for game in GAMES)
#: A file named in a tutorial's text, as a code span: a notebook (with or without `.ipynb`) or a Markdown file.
NAMED_FILE = re.compile(r"`((?:[\w.]+/)*\w+(?:\.ipynb|\.md)?)`")
#: The words the site adds to a tutorial, in its language.
SITE_WORDS = {
    "en": {"storage": "*This copy of the lesson lives in your browser: your edits stay here until your teacher "
                      "updates the lesson. To keep your own version, save it under another name (File ▸ Save "
                      "Notebook As…), or download it (File ▸ Download) to keep it for good.*",
           "absent": "*Not in this site, but in Jupyter on a computer (the project's `notebooks/` folder): "
                     "{names}.*"},
    "fr": {"storage": "*Cette copie de la leçon vit dans votre navigateur : vos modifications y restent jusqu'à ce "
                      "que votre enseignant mette la leçon à jour. Pour garder votre version, enregistrez-la sous "
                      "un autre nom (File ▸ Save Notebook As…), ou téléchargez-la (File ▸ Download) pour la "
                      "garder pour de bon.*",
           "absent": "*Pas dans ce site, mais dans Jupyter sur un ordinateur (le dossier `notebooks/` du projet) : "
                     "{names}.*"},
}
#: The tutorials written in French (the others are in English).
FRENCH_NOTEBOOKS = frozenset(path for path in SITE_NOTEBOOKS if path.endswith("01_jouer.ipynb"))
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
    """A tutorial as the site serves it: outputs and saved widget state dropped (they load faster and are made
    again), the files it names linked (`site_links`), the install cell and the storage note first."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    relative = source.relative_to(NOTEBOOKS).as_posix()
    words = SITE_WORDS["fr" if relative in FRENCH_NOTEBOOKS else "en"]
    notebook["metadata"].pop("widgets", None)
    for cell in notebook["cells"]:
        cell["metadata"].pop("widgets", None)
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
        else:
            cell["source"] = site_links("".join(cell["source"]), relative, words["absent"]).splitlines(keepends=True)
    command = " ".join(("%pip install tabletop_edu", *also))
    source = f"{command}\n# ↑ installs the games from this site's own files (nothing is fetched from the internet)"
    install = {"cell_type": "code", "execution_count": None, "id": "install-tabletop-edu", "metadata": {},
               "outputs": [], "source": source.splitlines(keepends=True)}
    storage = {"cell_type": "markdown", "id": "site-storage", "metadata": {}, "source": [words["storage"]]}
    notebook["cells"][1:1] = [install, storage]  # after the title cell
    notebook["metadata"]["kernelspec"] = {"display_name": "Python (Pyodide)", "language": "python",
                                          "name": "python"}
    return notebook


def site_links(markdown: str, relative: str, absent: str) -> str:
    """A tutorial's text with each file it names (a code span) that the site holds made a link to it, and one
    sentence (`absent`, naming them) after the text for the repository's notebooks the site leaves out. A name
    that is no file (a notebook's bare stem, "`01_play`", said of every game) is left as written."""
    folder = Path(relative).parent
    left_out: list[str] = []

    def link(match: re.Match[str]) -> str:
        name = match.group(1)
        for candidate in (name, f"{name}.ipynb"):
            for base, root in ((folder, NOTEBOOKS), (Path(), ROOT)):  # beside the tutorial; or from the checkout
                path = (base / candidate).as_posix()
                if base == folder and path in SITE_NOTEBOOKS or base == Path() and path in SITE_RULES:
                    target = Path(*[".."] * len(folder.parts), path).as_posix() if base == Path() else candidate
                    return f"[`{name}`]({target})"
                if base == folder and (root / path).is_file():
                    left_out.append(f"`{name}`")
                    return match.group(0)
        return match.group(0)

    linked = NAMED_FILE.sub(link, markdown)
    if left_out:
        linked += "\n\n" + absent.format(names=", ".join(dict.fromkeys(left_out)))
    return linked


def site_relative_links(markdown: str) -> list[str]:
    """The relative targets of a Markdown text's links (`[text](target)`), what a site's reader can click."""
    return [target for target in re.findall(r"\]\(([^)\s]+)\)", markdown) if "://" not in target
            and not target.startswith(("#", "mailto:"))]


def contents(target: Path) -> None:
    for relative, also in SITE_NOTEBOOKS.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(site_notebook(NOTEBOOKS / relative, also), indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    for relative in SITE_RULES:
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, target / relative)


def lessons_digest(contents_folder: Path) -> str:
    """A short digest of every file of the site's contents: it changes when, and only when, a lesson does."""
    digest = hashlib.sha256()
    for path in sorted(contents_folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(contents_folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def lite_settings(lessons: str) -> dict:
    """jupyter-lite.json: piplite looks only in the site's index (the kernel addon adds it and the runtime URL);
    the students' copies and open tabs are stored under the lessons' digest (`lessons`), so a changed lesson
    opens fresh; memory storage where the browser refuses to store anything (a private window)."""
    return {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "tabletop_edu", "disabledExtensions": ["@jupyterlab/apputils-extension:announcements"],
        "contentsStorageName": f"tabletop_edu lessons {lessons}",
        "workspacesStorageName": f"tabletop_edu workspaces {lessons}", "enableMemoryStorage": True,
        "litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}}}}


#: The site's entry page, for a phone and a projector alike: each tutorial opened in the one-notebook view.
ENTRY_TITLES = {"00_welcome.ipynb": "Welcome: a first look at hidden information (English)",
                **{f"{game}/01_play.ipynb": f"{title}: play a first game (English)" for game, title in
                   zip(GAMES, ("Commissario", "Get Adler", "Mafia de Cuba"))},
                **{f"{game}/01_jouer.ipynb": f"{title} : jouer une première partie (français)" for game, title in
                   zip(GAMES, ("Commissario", "Get Adler", "Mafia de Cuba"))}}


def entry_page() -> str:
    """The site's `index.html`: one link per tutorial (large, one a line), opening it in the notebook view. Its
    empty `jupyter-config-data` marks the site's root, where JupyterLite's pages stop looking for settings."""
    items = "\n".join(f'<li><a href="notebooks/index.html?path={path}">{html.escape(title)}</a></li>'
                       for path, title in ENTRY_TITLES.items())
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tabletop_edu: play and learn in your browser</title>
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{{}}</script>
<style>
body {{ font: 18px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; margin: 0 auto;
       max-width: 46rem; padding: 1rem; color: #111; background: #fff; }}
h1 {{ font-size: 1.6rem; margin: 0.5rem 0; }}
ul {{ list-style: none; padding: 0; }}
li a {{ display: block; padding: 0.8rem 1rem; margin: 0.5rem 0; border: 2px solid #1d4ed8; border-radius: 0.5rem;
        color: #1d4ed8; text-decoration: none; font-weight: 600; }}
li a:focus, li a:hover {{ background: #1d4ed8; color: #fff; }}
</style>
</head>
<body>
<h1>tabletop_edu</h1>
<p>Hidden-information games, played and explained in your browser: nothing to install, nothing leaves this site.
Open a notebook, then <b>Run ▸ Run All Cells</b>.</p>
<p lang="fr">Des jeux à information cachée, joués et expliqués dans votre navigateur : rien à installer, rien ne
sort de ce site. Ouvrez un carnet, puis <b>Run ▸ Run All Cells</b>.</p>
<ul>
{items}
</ul>
<p>The full JupyterLab: <a href="lab/index.html">lab/</a>.</p>
</body>
</html>
"""


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
    (lite / "jupyter-lite.json").write_text(json.dumps(lite_settings(lessons_digest(lite / "files")), indent=1))
    (lite / "overrides.json").write_text(json.dumps(SETTINGS_OVERRIDES, indent=1))
    config = {"LiteBuildConfig": {"apps": ["lab", "notebooks", "tree"], "contents": ["files"],
                                  "ignore_sys_prefix": True, "no_sourcemaps": True,
                                  "federated_extensions": [str(WIDGETS_EXTENSION), str(KERNEL_EXTENSION)],
                                  "output_dir": str(output)},
              "PipliteAddon": {"piplite_urls": ["wheels"]}}
    (lite / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1))
    run([str(Path(sys.executable).parent / "jupyter"), "lite", "build", "--lite-dir", str(lite)], cwd=lite)
    (output / "index.html").write_text(entry_page(), encoding="utf-8")  # in place of JupyterLite's redirect to lab/
    (output / ".nojekyll").touch()  # GitHub Pages serves the folder as it is


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="where the site goes (default build/site)")
    build(parser.parse_args(argv).output)


if __name__ == "__main__":
    main()
