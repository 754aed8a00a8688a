"""The package as a teacher installs it: the README's install lines, run as written in fresh virtual
environments (from a checkout, from the wheel they build; the JupyterLite line is the one the site's notebooks
open with); the built wheel without any extra plays every game, builds every widget and runs the documented
commands, with none of the analysis or server libraries present; and every third-party module the package
imports is declared in pyproject.toml.

The installs take their dependencies from pip's configured index (about 15 s for the lean one, 40 s with the
analysis extra); the size of the lean environment is printed and kept in test-artifacts/packaging/lean-install.txt."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop_edu.__main__ import CHECKOUT_BENCHMARKS, benchmarks_folder, chosen_benchmarks, main

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "packaging"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
#: Import names whose distribution is named otherwise.
DISTRIBUTION_OF = {"yaml": "PyYAML", "pyspiel": "open_spiel", "open_spiel": "open_spiel", "PIL": "pillow"}
#: What a lean install must not have: the analysis and class-server libraries.
HEAVY = ("numpy", "scipy", "matplotlib", "networkx", "nashpy", "pandas", "tornado", "segno")

#: Run by the fresh environment's Python, in an empty folder (nothing of the checkout on its path).
SMOKE = textwrap.dedent('''
    import importlib.util, json, random, sys
    from tabletop_edu import registry
    from tabletop_edu.widgets import GameWidget

    played = {}
    for name, plugin in registry.games().items():
        for players in sorted({plugin.min_players, plugin.max_players}):
            state = plugin.new_game(players, seed=7)
            bots = [plugin.make_bot("random") for _ in state.players]
            rng = random.Random(7)
            while not state.is_over:
                seat = state.acting_seats[0]
                state.apply(bots[seat].choose(state.view(seat), state.legal_actions(seat), rng), player=seat)
            played[f"{name}/{players}"] = len(state.history)
        widget = GameWidget(plugin.new_game(seed=3), bots={1: plugin.make_bot("random")})
        widget.flow_button.click()  # the information-flow picture, drawn while playing
        assert "<svg" in widget.flow.value and "tabletop" in widget.table.value, name
        widget.close()
    print(json.dumps({"location": registry.__file__, "played": played,
                      "importable": [m for m in sys.argv[1:] if importlib.util.find_spec(m)],
                      "loaded": [m for m in sys.argv[1:] if m in sys.modules]}))
''')


#: The environment of every command: nothing pointing at the checkout (the test itself runs with PYTHONPATH).
CLEAN_ENVIRONMENT = {name: value for name, value in os.environ.items()
                     if name not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}


def run(*command: str | Path, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env=CLEAN_ENVIRONMENT)
    if check:
        assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def readme_install_blocks() -> list[list[str]]:
    """The commands of each code block in the README's "Installing it elsewhere", their comments left out."""
    readme = (ROOT / "README.md").read_text()
    section = readme.partition("### Installing it elsewhere")[2].partition("\n#")[0]
    blocks = re.findall(r"^```\n(.*?)^```", section, re.S | re.M)
    return [[line.partition("  #")[0].strip() for line in block.splitlines() if line.strip()] for block in blocks]


#: The README's install blocks: from a checkout, the wheel built then installed, in JupyterLite.
CHECKOUT_LINES, WHEEL_LINES, JUPYTERLITE_LINES = readme_install_blocks()


def checkout_copy(folder: Path) -> Path:
    """What a clone holds for an install (pip builds in the source folder: its build/ stays out of ours)."""
    checkout = folder / "checkout"
    shutil.copytree(ROOT / "tabletop_edu", checkout / "tabletop_edu",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, checkout / name)
    return checkout


def run_as_written(lines: list[str], venv: Path, cwd: Path) -> None:
    """Each line in a shell whose environment is `venv` activated, as a reader would type it."""
    activated = {**CLEAN_ENVIRONMENT, "VIRTUAL_ENV": str(venv),
                 "PATH": f"{venv / 'bin'}{os.pathsep}{CLEAN_ENVIRONMENT.get('PATH', '')}"}
    for line in lines:
        done = subprocess.run(["/bin/sh", "-c", line], cwd=cwd, capture_output=True, text=True, timeout=600,
                              env=activated)
        assert done.returncode == 0, f"README line {line!r}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def megabytes(folder: Path) -> float:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink()) / 1e6


@pytest.fixture(scope="module")
def lean_venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(the fresh environment, the wheel installed in it)."""
    folder = tmp_path_factory.mktemp("lean")
    checkout = checkout_copy(folder)
    venv = folder / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=folder)  # no --system-site-packages: only what the wheel asks for
    run_as_written(WHEEL_LINES, venv, checkout)  # the README's: the wheel built, then installed
    (wheel,) = (checkout / "dist").glob("tabletop_edu-*.whl")
    yield venv, wheel


def test_the_readme_names_a_wheel_build_and_install_and_checkout_installs() -> None:
    assert CHECKOUT_LINES == ["pip install .", 'pip install ".[analysis]"']
    assert [line.split()[:2] for line in WHEEL_LINES] == [["pip", "wheel"], ["pip", "install"]]
    assert "pip install tabletop_edu" not in (ROOT / "README.md").read_text().replace("%pip install tabletop_edu", "")


def test_the_readmes_checkout_install_lines_work_as_written(tmp_path: Path) -> None:
    checkout = checkout_copy(tmp_path)
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    run_as_written(CHECKOUT_LINES[:1], venv, checkout)
    located = "import importlib.util as u, tabletop_edu; print(tabletop_edu.__file__, u.find_spec('numpy') is None)"
    installed, lean = run(python, "-c", located, cwd=tmp_path).stdout.split()
    assert Path(installed).is_relative_to(venv) and lean == "True"
    refused = run(python, "-m", "tabletop_edu", "simulate", "commissario", "--games", "2", "--bots",
                  "equilibrium,greedy", cwd=tmp_path, check=False)
    assert refused.returncode == 1 and refused.stderr.endswith('pip install "tabletop_edu[analysis]".\n')
    advice = refused.stderr.rpartition(": ")[2].removesuffix(".\n")
    run_as_written([advice], venv, tmp_path)  # the sentence's own advice adds the extra to the installed package
    played = run(python, "-m", "tabletop_edu", "simulate", "commissario", "--games", "2", "--bots",
                 "equilibrium,greedy", cwd=tmp_path)
    assert "commissario: 2 games" in played.stdout
    run_as_written(CHECKOUT_LINES[1:], venv, checkout)
    assert run(python, "-c", located, cwd=tmp_path).stdout.split()[1] == "False"


def test_the_readmes_jupyterlite_line_is_the_first_code_the_sites_notebooks_run() -> None:
    spec = importlib.util.spec_from_file_location("site_build", ROOT / "site" / "build.py")
    assert spec is not None and spec.loader is not None
    site_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site_build)
    first_cells = {relative: next(cell for cell in site_build.site_notebook(ROOT / "notebooks" / relative, also)["cells"]
                                  if cell["cell_type"] == "code")["source"][0]
                   for relative, also in site_build.SITE_NOTEBOOKS.items()}
    assert JUPYTERLITE_LINES == ["%pip install tabletop_edu"]
    assert all(line.startswith(JUPYTERLITE_LINES[0]) for line in first_cells.values()), first_cells


def test_the_wheel_alone_plays_every_game_and_builds_every_widget(lean_venv: tuple[Path, Path]) -> None:
    venv, _ = lean_venv
    python = venv / "bin" / "python"
    empty = venv.parent / "elsewhere"
    empty.mkdir(exist_ok=True)
    report = json.loads(run(python, "-c", SMOKE, *HEAVY, cwd=empty).stdout)
    assert Path(report["location"]).is_relative_to(venv)  # the installed wheel, not the checkout
    assert report["importable"] == [] and report["loaded"] == []  # none of them is even installed
    assert {key.partition("/")[0] for key in report["played"]} == {"commissario", "get_adler", "mafia_de_cuba",
                                                                    "peek"}
    assert all(steps > 0 for steps in report["played"].values())
    listing = run(python, "-m", "tabletop_edu", "games", cwd=empty).stdout
    assert "mafia_de_cuba: Mafia de Cuba, 6 to 12 players" in listing and "bots: random" in listing
    table = run(python, "-m", "tabletop_edu", "simulate", "peek", "--games", "6", "--bots", "random,ismcts",
                cwd=empty).stdout
    assert "peek: 6 games" in table and "95% CI" in table  # intervals without scipy
    bench = run(python, "-m", "tabletop_edu", "bench", cwd=empty, check=False)  # finds none: says where they are
    assert bench.returncode == 2 and "benchmarks/ folder of tabletop_edu's source checkout" in bench.stderr
    serve = run(python, "-m", "tabletop_edu", "serve", "--port", "0", cwd=empty, check=False)
    assert serve.returncode == 1 and 'needs tornado, which is not installed here: pip install ' \
                                      '"tabletop_edu[classroom]".' in serve.stderr
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(run(python, "-c", purelib, cwd=empty).stdout.strip())
    own_tools = sum(megabytes(path) for pattern in ("pip*", "setuptools*", "_distutils_hack")
                    for path in site.glob(pattern))
    installed = run(python, "-m", "pip", "list", "--format=freeze", cwd=empty).stdout.split()
    size = (f"lean install: {megabytes(site) - own_tools:.1f} MB of packages ({megabytes(venv):.1f} MB for the whole "
            f"venv with its own pip and setuptools): {' '.join(installed)}")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "lean-install.txt").write_text(size + "\n")
    print(size)


def test_the_voila_template_is_installed_as_jupyter_data(lean_venv: tuple[Path, Path]) -> None:
    venv, wheel = lean_venv
    template = venv / "share" / "jupyter" / "voila" / "templates" / "tabletop"
    assert sorted(path.name for path in template.iterdir()) == ["conf.json", "index.html.j2"]
    source = ROOT / "tabletop_edu" / "widgets" / "jupyter_data" / "voila" / "templates" / "tabletop"
    assert (template / "index.html.j2").read_text() == (source / "index.html.j2").read_text()
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(name for name in names if name.endswith(".dist-info/METADATA"))).decode()
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert "License-Expression: MIT" in metadata and "Classifier: Topic :: Education" in metadata
    base = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert sorted(line.split()[1].split(">")[0] for line in base) == ["ipywidgets", "jinja2", "markupsafe", "tqdm"]


def test_bench_finds_the_checkouts_benchmarks_or_says_where_they_are(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert benchmarks_folder(None) == CHECKOUT_BENCHMARKS and any(CHECKOUT_BENCHMARKS.glob("bench_*.py"))
    assert main(["bench", "--folder", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"No benchmarks/bench_*.py in {tmp_path}: the benchmarks are in the benchmarks/ folder")
    (tmp_path / "bench_tiny.py").write_text("print('tiny ran')\n")
    assert benchmarks_folder(str(tmp_path)) == tmp_path


def test_bench_runs_the_engines_by_default_the_named_scripts_or_all(tmp_path: Path,
                                                                     capfd: pytest.CaptureFixture[str]) -> None:
    assert [script.name for script in chosen_benchmarks(CHECKOUT_BENCHMARKS, [], every=False)] == ["bench_engines.py"]
    for name in ("engines", "tiny", "slow"):
        (tmp_path / f"bench_{name}.py").write_text(f"print('{name} ran')\n")

    def ran(*arguments: str) -> tuple[int, list[str]]:
        status = main(["bench", "--folder", str(tmp_path), *arguments])
        output = capfd.readouterr()
        return status, [line for line in output.out.splitlines() + output.err.splitlines() if line]

    assert ran() == (0, ["== bench_engines.py", "engines ran"])  # the check, not minutes of every script
    assert ran("slow", "bench_tiny.py") == (0, ["== bench_slow.py", "slow ran", "== bench_tiny.py", "tiny ran"])
    status, lines = ran("--all")
    assert status == 0 and [line for line in lines if line.startswith("==")] == [
        "== bench_engines.py", "== bench_slow.py", "== bench_tiny.py"]
    status, lines = ran("tiny", "fast")
    assert status == 2 and lines == [f"error: no benchmark 'fast' in {tmp_path}: choose among engines, slow, tiny, "
                                     "or give --all."]  # refused before anything runs
    (tmp_path / "bench_engines.py").unlink()
    status, lines = ran()
    assert status == 2 and lines[0].startswith("error: no benchmark 'engines'")
    (tmp_path / "bench_failing.py").write_text("raise SystemExit(3)\n")
    status, lines = ran("failing", "tiny")
    assert status == 3 and lines[-1] == "tiny ran"  # a failing benchmark fails the command; the others still run


def imported_distributions() -> dict[str, set[str]]:
    """Every third-party distribution the package imports (by its import name), with the files importing it."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tabletop_edu").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                if top not in sys.stdlib_module_names and top != "tabletop_edu":
                    found.setdefault(DISTRIBUTION_OF.get(top, top), set()).add(str(path.relative_to(ROOT)))
    return found


def declared() -> dict[str, list[str]]:
    """Each dependency group of pyproject.toml ("base" and every extra) -> its normalized distribution names."""
    groups = {"base": PYPROJECT["project"]["dependencies"], **PYPROJECT["project"]["optional-dependencies"]}
    return {group: [normalized(re.split(r"[\s\[<>=!~;]", requirement)[0]) for requirement in requirements]
            for group, requirements in groups.items()}


def normalized(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def test_every_imported_library_is_declared() -> None:
    everything = {name for names in declared().values() for name in names}
    imported = imported_distributions()
    assert {"numpy", "jinja2", "tornado", "ipywidgets", "open_spiel"} <= set(imported)  # the scan finds them
    missing = {name: sorted(files) for name, files in imported.items() if normalized(name) not in everything}
    assert missing == {}, f"imported but declared in no group of pyproject.toml: {missing}"


def test_the_base_install_is_pure_python_and_the_analysis_an_extra() -> None:
    groups = declared()
    assert sorted(groups["base"]) == ["ipywidgets", "jinja2", "markupsafe", "tqdm"]
    assert set(HEAVY[:6]) <= set(groups["analysis"]) and {"tornado", "segno"} <= set(groups["classroom"])
    assert len(groups["base"]) == len(set(groups["base"]))  # nothing listed twice
    (everything,) = PYPROJECT["project"]["optional-dependencies"]["all"]
    assert everything.startswith("tabletop_edu[") and everything.endswith("]")
    # bench pulls game engines of its own; gambit compiles for minutes where its wheels are missing
    assert set(everything[len("tabletop_edu["):-1].split(",")) == set(groups) - {"base", "all", "bench", "gambit"}
    assert "-e '.[all]'" in (ROOT / "Makefile").read_text()  # `make` installs every extra but bench
