"""Command line: `python -m tabletop_edu simulate GAME ...` prints a tournament table; `bench` runs benchmarks.

    python -m tabletop_edu games            # the installed games, their table sizes and bots
    python -m tabletop_edu simulate commissario --players 3 --games 50 --bots random,greedy,bidder --seed 1
    python -m tabletop_edu simulate peek --players 2 --games 200 --bots random,"ismcts(iterations=32)" --workers 2
    python -m tabletop_edu simulate get_adler --games 1000 --bots random,smart --dask tcp://host:8786
    python -m tabletop_edu simulate commissario --games 5000 --bots greedy,bidder --save runs/c.jsonl --budget 5
    python -m tabletop_edu bench            # every game's speed beside OpenSpiel's (benchmarks/bench_engines.py)
    python -m tabletop_edu bench --all      # every benchmarks/bench_*.py, one after the other (bench_ismcts: minutes)
    python -m tabletop_edu bench mafia_de_cuba ismcts   # the named ones (benchmarks/bench_NAME.py)
    python -m tabletop_edu serve --port 8000   # the class server: students play on their own devices

Games and their bots come from the game registry (`tabletop_edu.registry`): a game installed from another
package appears here too. `--save FILE` writes each game as it finishes; the same command again resumes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

from . import registry
from .extras import MissingExtra, need
from .tournament import results_json, run_tournament


def split_bots(text: str) -> list[str]:
    """Split "a,b(x=1, y=2),c" at the commas outside parentheses."""
    bots, depth, current = [], 0, ""
    for char in text:
        depth += char == "("
        depth -= char == ")"
        if char == "," and depth == 0:
            bots.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        bots.append(current.strip())
    return bots


def bot_listing(plugin: registry.GamePlugin) -> str:
    """The game's bot names, each bot that needs an extra marked with it, and "not installed here" when its
    libraries are missing: "random, equilibrium (analysis extra, not installed here)"."""
    names = []
    for name in plugin.bot_names():
        extras = plugin.bot_extras(name)
        missing = ", not installed here" if plugin.bot_missing(name) else ""
        names.append(f"{name} ({', '.join(extras)} extra{missing})" if extras else name)
    return ", ".join(names)


def list_games(arguments: argparse.Namespace | None = None) -> int:
    """Every installed game: its name, title, table sizes and bots (those needing an extra marked)."""
    for name, plugin in registry.games().items():
        print(f"{name}: {plugin.title}, {plugin.min_players} to {plugin.max_players} players"
              f"{f' ({plugin.summary})' if plugin.summary else ''}\n  bots: {bot_listing(plugin)}")
    return 0


def refuse_missing_extras(game: str, bots: Sequence[str]) -> None:
    """Raise the one sentence (`MissingExtra`) of the first bot whose libraries are not installed here, a bot
    named in another's options included (ismcts's `rollout`): before any game, not as a forfeit in each.
    An unknown bot is a `ValueError`."""
    plugin = registry.game(game)
    for text in bots:
        spec = registry.bot_spec(plugin.name, text)
        named = [text] + [value for _, value in spec.kwargs if isinstance(value, str)]
        for name in named:
            missing = plugin.bot_missing(name.partition("(")[0].strip())
            if missing is not None:
                raise missing


def simulate(arguments: argparse.Namespace) -> int:
    if arguments.list_bots:
        print("\n".join(f"{name}: {bot_listing(plugin)}" for name, plugin in registry.games().items()))
        return 0
    if arguments.game is None:
        print("simulate needs a GAME (or --list-bots).", file=sys.stderr)
        return 2
    if registry.find_game(arguments.game) is None:
        print(f"error: unknown game {arguments.game!r}; installed games: {', '.join(registry.games())}",
              file=sys.stderr)
        return 2
    bots = split_bots(arguments.bots)
    try:
        refuse_missing_extras(arguments.game, bots)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    client = None
    executor: Executor | None = None
    if arguments.dask:
        Client = need("dask.distributed", "Running on a dask cluster (--dask)").Client
        client = Client() if arguments.dask == "local" else Client(arguments.dask)
        executor = client.get_executor()
    elif arguments.workers > 1:
        executor = ProcessPoolExecutor(arguments.workers)
    try:
        result = run_tournament(arguments.game, bots, players=arguments.players,
                                games=arguments.games, seed=arguments.seed, executor=executor,
                                progress=arguments.progress, budget=arguments.budget, save=arguments.save)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        if client is not None:
            client.close()
        elif executor is not None:
            executor.shutdown()
    print(result.summary())
    print()
    print(result.seat_summary())
    print()
    print(result.pairwise_summary())
    if arguments.json:
        Path(arguments.json).write_text(results_json(result))
        print(f"\nEvery game's seed and record: {arguments.json}")
    return 1 if result.lost else 0


#: Where the benchmarks live: a folder of the source checkout, beside the package (not part of an installed wheel).
CHECKOUT_BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def benchmarks_folder(given: str | None) -> Path | None:
    """The folder of benchmarks/bench_*.py: `--folder`, else the checkout's (an editable install), else a
    `benchmarks/` folder in the current directory; None when none holds a benchmark."""
    candidates = [Path(given)] if given else [CHECKOUT_BENCHMARKS, Path.cwd() / "benchmarks"]
    return next((folder for folder in candidates if any(folder.glob("bench_*.py"))), None)


#: What `bench` runs when given no name: the engines beside OpenSpiel's games, every game and table size with its
#: ratio to the faster peer (the speed target: x2.0), in about a minute; `--all` runs every script.
DEFAULT_BENCHMARKS = ("engines",)


def chosen_benchmarks(folder: Path, names: Sequence[str], every: bool) -> list[Path]:
    """The scripts `bench` runs: every bench_*.py with `every`, else bench_NAME.py for each name given (default:
    `DEFAULT_BENCHMARKS`); a name without its script is a `ValueError` listing the names there are."""
    scripts = sorted(folder.glob("bench_*.py"))
    if every:
        return scripts
    known = {script.stem.removeprefix("bench_"): script for script in scripts}
    wanted = [name.removeprefix("bench_").removesuffix(".py") for name in names or DEFAULT_BENCHMARKS]
    missing = [name for name in wanted if name not in known]
    if missing:
        raise ValueError(f"no benchmark {', '.join(map(repr, missing))} in {folder}: choose among "
                         f"{', '.join(sorted(known))}, or give --all.")
    return [known[name] for name in wanted]


def bench(arguments: argparse.Namespace) -> int:
    """Run the chosen benchmarks/bench_*.py, each as its own process (a clean interpreter per benchmark)."""
    folder = benchmarks_folder(arguments.folder)
    if folder is None:
        where = f"in {Path(arguments.folder).resolve()}" if arguments.folder else "beside this installed package"
        print(f"No benchmarks/bench_*.py {where}: the benchmarks are in the benchmarks/ folder of tabletop_edu's "
              "source checkout, not in the wheel; run this command from that checkout (with the bench extra) or "
              "give --folder PATH/benchmarks.", file=sys.stderr)
        return 2
    try:
        scripts = chosen_benchmarks(folder, arguments.names, arguments.all)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    status = 0
    for script in scripts:
        print(f"== {script.name}", flush=True)
        status |= subprocess.call([sys.executable, str(script)])
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tabletop_edu", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("games", help="list the installed games and their bots")
    listing.set_defaults(handler=list_games)
    run = commands.add_parser("simulate", help="play a tournament and print its table")
    run.add_argument("game", nargs="?", help="the game (see: python -m tabletop_edu games)")
    run.add_argument("--players", type=int, help="table size (default: the game's usual one)")
    run.add_argument("--games", type=int, default=100)
    run.add_argument("--bots", default="random", help="comma-separated bot names, e.g. random,greedy")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--workers", type=int, default=1, help="local processes (1: in this process)")
    run.add_argument("--dask", metavar="ADDRESS", help="run on a dask cluster (its scheduler address, or 'local')")
    run.add_argument("--progress", action="store_true", help="show a progress bar")
    run.add_argument("--json", help="write every game's seed and record to this file")
    run.add_argument("--save", metavar="FILE", help="write each game as it finishes (JSON lines); resumes from FILE")
    run.add_argument("--budget", type=float, metavar="SECONDS", help="time per decision; a slower bot forfeits")
    run.add_argument("--list-bots", action="store_true", help="print the bot names of each game")
    run.set_defaults(handler=simulate)
    benchmarks = commands.add_parser(
        "bench", help="run the benchmarks in benchmarks/ (default: every game's speed beside OpenSpiel's)",
        description="Run benchmarks/bench_NAME.py scripts, each in its own process. With no NAME: bench_engines.py, "
                    "every game at every table size in random self-play, as a ratio of decisions per second to the "
                    "faster of OpenSpiel's pure-Python Kuhn and Liar's poker (the target: x2.0), then IS-MCTS "
                    "playouts per second. --all runs every script (bench_ismcts.py alone takes many minutes).")
    benchmarks.add_argument("names", nargs="*", metavar="NAME",
                            help="benchmarks to run: bench_NAME.py, e.g. engines, ismcts, classroom "
                                 "(default: engines)")
    benchmarks.add_argument("--all", action="store_true", help="run every benchmarks/bench_*.py, one after the other")
    benchmarks.add_argument("--folder", help="the benchmarks' folder (default: the source checkout's benchmarks/, "
                            "or ./benchmarks)")
    benchmarks.set_defaults(handler=bench)
    from .classroom.cli import add_command as add_serve_command  # the class server: `serve`

    add_serve_command(commands)
    arguments = parser.parse_args(argv)
    try:
        return int(arguments.handler(arguments))
    except MissingExtra as missing:  # a lean install: one sentence, not a traceback
        print(missing, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
