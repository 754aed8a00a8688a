"""How every fuzzed case ended, per game: the figures of issue 10's closing note.

Run: `python benchmarks/fuzz_report.py [scale]`. It runs the fuzz suite of `tests/core/test_fuzz.py` (the same
generators and checks, derandomized, so the figures repeat) with `scale` times its budget (default 4), without
stopping at a wrong outcome, and prints how the cases ended: refused clearly, accepted because legal, loaded
and replayed legally, or unclear / WRONG, with the first inputs of each unclear or wrong kind.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests" / "core" / "test_fuzz.py"


def fuzz_module(scale: float = 1.0) -> ModuleType:
    """tests/core/test_fuzz.py as a module (the tests are the single definition of the cases), its budget
    times `scale`."""
    os.environ["TABLETOP_FUZZ_SCALE"] = str(scale)
    spec = importlib.util.spec_from_file_location("tabletop_fuzz", TESTS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(scale: float = 4.0) -> ModuleType:
    """Run every fuzz test of every game with `scale` times the suite's budget; the module holds the tallies."""
    fuzz = fuzz_module(scale)
    fuzz.STRICT = False
    tests = {"actions": fuzz.test_fuzzed_action_values_are_refused_cleanly,
             "texts": fuzz.test_fuzzed_texts_and_players_are_refused_cleanly,
             "rules": fuzz.test_fuzzed_rules_make_playable_games_or_a_rules_error,
             "records": fuzz.test_fuzzed_records_load_legally_or_name_what_is_wrong}
    for kind, test in tests.items():
        for name in fuzz.GAMES:
            started = time.process_time()
            try:
                test(name)
            except Exception as error:  # noqa: BLE001 - a harness failure is reported, the others go on
                print(f"{kind} of {name}: the fuzzer itself stopped: {type(error).__name__}: {error}")
            print(f"{kind:8} {name:28} done in {time.process_time() - started:.1f} s of CPU", file=sys.stderr)
    return fuzz


def report(fuzz: Any) -> str:
    """The tallies as text: per kind and game, then totals and the first unclear or wrong inputs."""
    lines = [fuzz.summary(), ""]
    for kind in fuzz.EXAMPLES:
        cases = [(outcome, count) for (k, _, outcome), count in fuzz.TALLY.items() if k == kind]
        total = sum(count for _, count in cases)
        bad = sum(count for outcome, count in cases if outcome == fuzz.WRONG or outcome.startswith("unclear"))
        lines.append(f"{kind}: {total} cases over {len(fuzz.GAMES)} games, {bad} unclear or wrong")
    for (kind, name, outcome), samples in sorted(fuzz.SAMPLES.items()):
        lines.append(f"\n{kind} / {name} / {outcome}:")
        lines += [f"  - {sample}" for sample in samples]
    return "\n".join(lines)


def main(scale: float = 4.0) -> None:
    print(report(run(scale)))


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 4.0)
