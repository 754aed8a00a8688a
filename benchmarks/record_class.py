"""Write the recorded class the debrief notebooks teach from: `python benchmarks/record_class.py [path]`.

Eight simulated students (`beliefs.SimulatedStudent`, each with a style of their own: exact, overconfident,
cautious, naive) play one game of each game with bots making the moves, and answer every belief question their
game asks them; `classroom.debrief.record_class` plays them without a server and `ClassGames.save` writes the
JSON (default notebooks/data/class_record.json). Seeded: the same file every time.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tabletop_edu.beliefs import SimulatedStudent
from tabletop_edu.classroom.debrief import SimulatedTable, record_class
from tabletop_edu.classroom.export import ClassGames
from tabletop_edu.mafia_de_cuba import bots as mafia_bots
from tabletop_edu.registry import game

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "notebooks" / "data" / "class_record.json"
NAMES = ("Ana", "Ben", "Chloé", "Dev", "Emma", "Farid", "Gus", "Hana")
STYLES = ("bayesian", "overconfident", "cautious", "overconfident", "uniform", "bayesian", "overconfident", "cautious")
SEED = 23


def students(seats: int) -> dict[int, SimulatedStudent]:
    """The first `seats` students, each keeping their style (and their own seeded noise) from game to game."""
    return {seat: SimulatedStudent(STYLES[seat], seed=f"{SEED}-{NAMES[seat]}", answers=0.9) for seat in range(seats)}


def mafia_table() -> SimulatedTable:
    """Eight at the table; the Godfather reasons on the posterior and asks every taker what they took; thieves
    lie consistently, the others tell the truth."""
    godfather = mafia_bots.PosteriorGodfather(truth=0.7)
    kinds = [(mafia_bots.LoyalTaker, mafia_bots.Truthful), (mafia_bots.GreedyThief, mafia_bots.ConsistentLiar),
             (mafia_bots.CautiousThief, mafia_bots.ConsistentLiar), (mafia_bots.RandomTaker, mafia_bots.Truthful)]
    bots = [mafia_bots.MafiaBot(taker=kinds[seat % 4][0](), testimony=kinds[seat % 4][1](), godfather=godfather)
            for seat in range(8)]
    return SimulatedTable("mafia_de_cuba", bots, NAMES, students(8), seed=SEED)


def adler_table() -> SimulatedTable:
    plugin = game("get_adler")
    return SimulatedTable("get_adler", [plugin.make_bot("smart") for _ in range(6)], NAMES[:6], students(6),
                          seed=SEED)


def commissario_table() -> SimulatedTable:
    plugin = game("commissario")
    bots = [plugin.make_bot(name) for name in ("equilibrium", "greedy", "bidder", "random")]
    return SimulatedTable("commissario", bots, NAMES[:4], students(4), seed=SEED)


def record() -> ClassGames:
    return record_class([mafia_table(), adler_table(), commissario_table()])


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    games = record()
    games.save(path)
    answers = sum(len(class_game.beliefs) for class_game in games)
    print(f"{path}: {len(games)} games, {answers} belief answers, {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
