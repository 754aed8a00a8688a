"""Game trees with information sets: built from a protocol's views (Kuhn poker written as a tiny game, Peek), a
hand-written model, drawn with every information set, written to Gambit's .efg and read back (by our reader and
by pygambit when installed), and solved exactly (Kuhn's value -1/18, best-response gains 0)."""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from html import unescape
from typing import Any

import pytest

from tabletop_edu.core import Action, GameRules, GameState, IllegalAction, Seat, View
from tabletop_edu.examples.peek import Rules as PeekRules
from tabletop_edu.examples.peek import new_game as new_peek
from tabletop_edu.trees import (Chance, Decision, Terminal, TreeTooLarge, expected_payoffs, gambit_equilibria,
                                nash_conv, read_efg, solve_zero_sum, to_efg, tree_from_spec, tree_from_states,
                                uniform_profile, view_key)


# ------------------------------------------------------------------------------------------ Kuhn poker, a protocol


@dataclass(frozen=True)
class KuhnRules(GameRules):
    """Kuhn poker has no options."""


@dataclass(frozen=True)
class Bet(Action):
    bet: bool

    def __str__(self) -> str:
        return "bet" if self.bet else "pass"


class KuhnState(GameState[KuhnRules]):
    """Kuhn poker: cards J < Q < K, one each, ante 1; seat 0 passes or bets 1, and so on (pass-pass: showdown
    for 1; bet-pass: the bettor takes the antes; bet-bet or pass-bet-bet: showdown for 2)."""

    game = "tests.kuhn"
    title = "Kuhn poker"
    rules_class = KuhnRules
    min_players = max_players = 2

    def _setup(self) -> None:
        self.cards = self.rng.sample(range(3), 2)
        self.moves: list[bool] = []
        self.deal_events()

    def deal_events(self) -> None:
        self.events = []
        for seat, card in enumerate(self.cards):
            self.emit("deal", f"{self.players[seat]} gets {'JQK'[card]}.", observers=[seat],
                      redacted=f"{self.players[seat]} gets a card.", seat=seat, card=card)

    def _whose_turn(self) -> Seat | None:
        moves = self.moves
        if len(moves) == 2 and moves != [False, True] or len(moves) == 3:
            return None
        return len(moves) % 2

    def legal_actions(self, player: Seat | None = None) -> list[Action]:
        return [Bet(False), Bet(True)] if not self.is_over and player in (None, self.current_player) else []

    def _validate(self, seat: Seat, action: Action) -> None:
        if not isinstance(action, Bet):
            raise IllegalAction("Pass or bet.")

    def _play(self, seat: Seat, action: Action) -> None:
        assert isinstance(action, Bet)
        self.moves.append(action.bet)
        self.emit("bet", f"{self.players[seat]} {action}s.", actor=seat, bet=action.bet)

    def _facts(self, seat: Seat | None) -> dict[str, Any]:
        return {"my_card": None if seat is None else self.cards[seat], "moves": list(self.moves)}

    @classmethod
    def world_from_view(cls, view: View, rng: random.Random) -> KuhnState:
        raise NotImplementedError

    @classmethod
    def parse_action(cls, text: str) -> Action:
        if text not in ("pass", "bet"):
            raise IllegalAction("Pass or bet.")
        return Bet(text == "bet")

    @property
    def max_steps(self) -> int:
        return 3

    @property
    def winners(self) -> tuple[Seat, ...]:
        if not self.is_over:
            return ()
        if self.moves in ([True, False], [False, True, False]):
            return (0 if self.moves[0] else 1,)
        return (0 if self.cards[0] > self.cards[1] else 1,)

    def returns(self) -> list[float]:
        stake = 2.0 if self.moves.count(True) == 2 else 1.0
        winner = self.winners[0]
        return [stake if seat == winner else -stake for seat in range(2)]


def kuhn_deals() -> list[tuple[str, KuhnState, float]]:
    deals = []
    for cards in itertools.permutations(range(3), 2):
        state = KuhnState(2, seed=0)
        state.cards = list(cards)
        state.deal_events()
        deals.append(("".join("JQK"[card] for card in cards), state, 1 / 6))
    return deals


@pytest.fixture(scope="module")
def kuhn():
    return tree_from_states(kuhn_deals())


def test_kuhn_from_the_protocol_has_its_textbook_shape(kuhn) -> None:
    assert kuhn.size() == {"nodes": 55, "chance": 1, "decision": 24, "terminal": 30, "infosets": 12}
    assert sorted(len(s.nodes) for s in kuhn.infosets) == [2] * 12  # each card meets two others
    assert {s.player for s in kuhn.infosets} == {0, 1}


def test_information_sets_are_exactly_the_actors_views(kuhn) -> None:
    """Walking the tree again with the states: two nodes share a set if and only if the actor's views agree."""
    states: dict[int, KuhnState] = {}
    root = kuhn.root
    for k, child in enumerate(root.children):
        states[child] = kuhn_deals()[k][1]
    for index, node in enumerate(kuhn.nodes):
        if index in states and node.kind == "decision":
            for action, child in zip(node.actions, node.children):
                after = states[index].clone()
                after.apply(action)
                states[child] = after
    for infoset in kuhn.infosets:
        keys = {view_key(states[member], infoset.player) for member in infoset.nodes}
        assert len(keys) == 1
    seen: dict[tuple[int, str], int] = {}
    for index, state in states.items():
        node = kuhn.nodes[index]
        if node.kind == "decision":
            assert seen.setdefault((node.player, view_key(state, node.player)), node.infoset) == node.infoset


def test_kuhn_value_is_minus_one_eighteenth_and_the_equilibrium_is_checked(kuhn) -> None:
    solution = solve_zero_sum(kuhn)
    print(solution)
    assert solution.value == pytest.approx(-1 / 18, abs=1e-9)
    assert max(solution.gains) < 1e-9 and solution.nash_conv < 1e-9
    assert expected_payoffs(kuhn, solution.profile)[0] == pytest.approx(-1 / 18, abs=1e-9)
    assert nash_conv(kuhn, uniform_profile(kuhn)) > 0.1  # playing at random is far from equilibrium


def test_the_efg_text_reads_back_to_the_same_tree(kuhn) -> None:
    text = to_efg(kuhn)
    assert text.startswith('EFG 2 R "Kuhn poker, from the protocol" { "Seat 0" "Seat 1" }')
    again = read_efg(text)
    assert again.players == kuhn.players and again.size() == kuhn.size()
    assert [(n.kind, n.actions, n.player, n.infoset, n.probabilities) for n in again.nodes] == [
        (n.kind, n.actions, n.player, n.infoset, n.probabilities) for n in kuhn.nodes]
    assert [n.payoffs for n in again.nodes] == [n.payoffs for n in kuhn.nodes]
    assert [s.label for s in again.infosets] == [s.label for s in kuhn.infosets]
    assert to_efg(again) == text
    assert solve_zero_sum(again).value == pytest.approx(-1 / 18, abs=1e-9)


def test_the_reader_takes_gambits_own_files_with_inner_outcomes_and_escaped_quotes() -> None:
    text = ('EFG 2 R "A \\"quoted\\" game" { "One" "Two" } "a comment"\n'
            'c "" 1 "" { "H" 1/2 "T" 0.5 } 1 "entry" { -1, 1 }\n'
            'p "" 1 1 "(1,1)" { "a" "b" } 0\n'
            't "" 2 "x" { 3 -3 }\n'
            't "" 0\n'
            'p "" 1 1 0\n'
            't "" 2\n'
            't "" 3 "y" { 1.5e0 -1.5 }\n')
    tree = read_efg(text)
    assert tree.title == 'A "quoted" game' and tree.players == ("One", "Two")
    assert [tree.nodes[leaf].payoffs for leaf in tree.leaves()] == [(2, -2), (-1, 1), (2, -2), (0.5, -0.5)]
    assert len(tree.infosets) == 1 and len(tree.infosets[0].nodes) == 2
    with pytest.raises(ValueError, match="ends in the middle"):
        read_efg(text.rsplit("\n", 2)[0])


def test_a_tree_past_its_limit_says_so() -> None:
    game = new_peek(2, seed=1, rules=PeekRules(highest_card=3, rounds=2))
    with pytest.raises(TreeTooLarge, match="more than 200 nodes"):
        tree_from_states(game, max_nodes=200)


def test_peek_from_one_deal_and_from_every_deal() -> None:
    """Peek at two seats, cards 1-2, one round: a seat that peeks learns nothing it did not know (two cards);
    from every deal the first seat's sets are its own card, the second's its card and what the first did."""
    rules = PeekRules(highest_card=2, rounds=1)
    deals = []
    for seed in range(40):
        state = new_peek(2, seed=seed, rules=rules)
        if tuple(state.cards) not in [d[0] for d in deals]:
            deals.append((tuple(state.cards), state))
    tree = tree_from_states([(f"cards {a}-{b}", state, 0.5) for (a, b), state in deals])
    assert len(deals) == 2
    first = [s for s in tree.infosets if s.player == 0]
    assert len(first) == 2 and all(len(s.nodes) == 1 for s in first)  # each card is its own knowledge
    assert len({s.actions for s in tree.infosets if s.player == 0}) == 1
    assert nash_conv(tree, uniform_profile(tree)) >= 0


def test_the_drawing_shows_every_information_set_and_readable_text(kuhn) -> None:
    svg = kuhn.svg()
    assert svg.startswith("<svg") and 'width="1280"' in svg
    for infoset in kuhn.infosets:
        assert f'data-infoset="{infoset.label}"' in svg and f">{infoset.label}</text>" in svg
    assert 'stroke-dasharray="7 4"' in svg
    sizes = [int(size) for size in re.findall(r'font-size="(\d+)"', svg)]
    assert min(sizes) >= 14
    assert "(−2, 2)" in svg and "JQ (1/6)" in svg
    in_a_notebook = kuhn._repr_svg_()  # JupyterLab shows an SVG at its own width: the column's, 848 px
    assert 'width="848"' in in_a_notebook and in_a_notebook == kuhn.svg(848)


def test_a_french_tree_is_drawn_in_french_and_its_long_title_fits() -> None:
    """The legend, the seats, the chance letter, the actions and the title in the tree's language; a title
    wider than the drawing goes on in a second line instead of being cut at the column's edge."""
    from tabletop_edu.commissario.actions import Pick
    from tabletop_edu.commissario.strategy import round_tree, small_round

    picks = [Pick(("red", "yellow")), Pick(("red", "blue")), Pick(("yellow", "blue"))]
    english, french = (round_tree(small_round(0), picks, language=language) for language in ("en", "fr"))
    texts = {language: [unescape(text) for text in re.findall(r">([^<>]+)</text>", tree._repr_svg_())]
             for language, tree in (("en", english), ("fr", french))}
    assert {"A: Seat 0", "chance", "one information set (same view)", "pick red yellow"} <= set(texts["en"])
    assert {"A: Siège 0", "hasard", "un ensemble d'information (même vue)", "rouge + jaune", "révèle rouge"} \
        <= set(texts["fr"])
    assert not {"Seat", "chance", "pick"} & {word for text in texts["fr"] for word in text.split()}
    assert french.title == " ".join(texts["fr"][:2]) and not texts["fr"][2].startswith("Commissario")
    assert english.size() == french.size()


def test_a_hand_written_model_and_its_checks() -> None:
    """Matching pennies as a model: the second player's one set spans both nodes; value 0, mix 1/2."""
    def leaf(a: str, b: str) -> Terminal:
        return Terminal((1.0, -1.0) if a == b else (-1.0, 1.0))

    spec = Decision(0, "first", tuple((a, Decision(1, "second", tuple((b, leaf(a, b)) for b in "HT"))) for a in "HT"))
    tree = tree_from_spec(("Row", "Column"), spec, title="Matching pennies")
    solution = solve_zero_sum(tree)
    assert solution.value == pytest.approx(0, abs=1e-9)
    assert all(q == pytest.approx(0.5) for mix in solution.profile.values() for q in mix)
    with pytest.raises(ValueError, match="other actions"):
        tree_from_spec(("Row", "Column"), Decision(0, "first", (
            ("H", Decision(1, "same", (("a", Terminal((0, 0))),))),
            ("T", Decision(1, "same", (("b", Terminal((0, 0))),))))))
    with pytest.raises(ValueError, match="sum to 1"):
        tree_from_spec(("Row", "Column"), Chance((("x", 0.7, Terminal((0, 0))), ("y", 0.7, Terminal((0, 0))))))
    general = tree_from_spec(("Row", "Column"), Decision(0, "r", (("a", Terminal((1, 0))), ("b", Terminal((0, 2))))))
    with pytest.raises(ValueError, match="not zero-sum"):
        solve_zero_sum(general)
    forgetful = tree_from_spec(("Row", "Column"), Decision(0, "r", (
        ("a", Decision(0, "again", (("c", Terminal((1, -1))), ("d", Terminal((0, 0)))))),
        ("b", Decision(0, "again", (("c", Terminal((0, 0))), ("d", Terminal((1, -1)))))))))
    with pytest.raises(ValueError, match="perfect recall"):
        solve_zero_sum(forgetful)


def test_gambits_solvers_agree_when_pygambit_is_installed(kuhn) -> None:
    pytest.importorskip("pygambit", reason="pygambit (the optional extra 'gambit') is not installed here: "
                        "its wheels are missing on some platforms, and it compiles for minutes from source")
    for method in ("lp", "lcp"):
        found = gambit_equilibria(kuhn, method)
        assert found
        for payoffs, regret in found:
            assert payoffs == pytest.approx((-1 / 18, 1 / 18), abs=1e-6) and regret < 1e-6


# ------------------------------------------------------------------------------------------ the three games' trees


def commissario_tree():
    from tabletop_edu.commissario.actions import Pick
    from tabletop_edu.commissario.game_tree import round_tree, small_round

    return round_tree(small_round(0), [Pick(("red", "yellow")), Pick(("red", "blue")), Pick(("yellow", "blue"))])


def get_adler_tree():
    from tabletop_edu.get_adler.deduction import questioning_tree

    return questioning_tree(3, asker=2, target=0, questions=[("hat", "black"), ("hair", "black")])


def mafia_speaker():
    from tabletop_edu.mafia_de_cuba import new_game
    from tabletop_edu.mafia_de_cuba.cheap_talk import Speaker
    from tabletop_edu.mafia_de_cuba.inference import RANDOM_CHOICES

    state = new_game(6, seed=0)
    for action in ["hide 5", "set-aside none", "take 1", "take driver", "take 1", "take 1", "take 1"]:
        state.apply(action)
    while state.phase == "floor":
        state.apply("pass", player=state.acting_seats[0])
    state.apply("ask 1 took")
    return Speaker.of(state.view(0), 1, [str(a) for a in state.legal_actions()], RANDOM_CHOICES)


def mafia_tree():
    from tabletop_edu.mafia_de_cuba.cheap_talk import testimony_tree

    return testimony_tree(mafia_speaker(), ["took 1", "took 2", "took driver"], [1, 2])


GAME_TREES = {"commissario": commissario_tree, "get_adler": get_adler_tree, "mafia_de_cuba": mafia_tree}


def test_commissarios_round_from_the_protocol_is_solved_and_agrees_with_the_plan_game() -> None:
    """The small round drawn (three picks each): value -2 for seat 0, who reveals second. The whole round (every
    pick) solved on its 1,591 nodes gives seat 0 the opposite of the plan game's value for seat 1 (its normal form
    of complete plans, 30 x 960, solved as a matrix game on the points' difference)."""
    import numpy as np
    from scipy.optimize import linprog

    from tabletop_edu.commissario.game_tree import round_tree, small_round
    from tabletop_edu.commissario.normal_form import plan_game

    drawn = commissario_tree()
    solution = solve_zero_sum(drawn)
    print(drawn, solution, sep="\n")
    assert drawn.size()["nodes"] == 67 and solution.value == pytest.approx(-2) and solution.nash_conv < 1e-9
    state = small_round(0)
    whole = round_tree(state)
    exact = solve_zero_sum(whole)
    print(whole, exact, sep="\n")
    assert whole.size()["decision"] == 691 and exact.nash_conv < 1e-9
    game = plan_game(state.view(0).facts)
    matrix = game.row_payoffs - game.col_payoffs
    rows, cols = matrix.shape
    result = linprog(np.r_[np.zeros(rows), -1], A_ub=np.c_[-matrix.T, np.ones(cols)], b_ub=np.zeros(cols),
                     A_eq=np.r_[np.ones(rows), 0][None], b_eq=[1], bounds=[(0, None)] * rows + [(None, None)])
    assert game.seats == (1, 0) and exact.value == pytest.approx(result.fun)  # seat 1's value, negated


def test_the_rounds_only_subgame_is_itself_and_its_equilibrium_leaves_sets_off_the_path() -> None:
    """What the lesson (commissario/04) says: the small round's only subgame is the whole tree (every reveal
    shares a set with a node outside its subtree), and the LP's equilibrium reaches 5 of its 14 information sets
    (reach adds up over a set's nodes; the first set is reached surely)."""
    from tabletop_edu.trees import infoset_reach, subgame_roots

    tree = commissario_tree()
    solution = solve_zero_sum(tree)
    reach = infoset_reach(tree, solution.profile)
    assert subgame_roots(tree) == [0]
    assert reach[tree.root.infoset] == 1 and sum(r > 0 for r in reach) == 5 and len(reach) == 14
    open_move = tree_from_spec(["A", "B"], Decision(0, "A1", (
        ("left", Decision(1, "B1", (("x", Terminal((1, -1))), ("y", Terminal((0, 0)))))),
        ("right", Terminal((2, -2))))))
    assert subgame_roots(open_move) == [0, 1]  # B sees A's move: the subtree after "left" is a subgame
    assert infoset_reach(open_move, {0: (0.0, 1.0), 1: (0.5, 0.5)}) == [1.0, 0.0]


def test_openspiels_efg_game_reads_our_file_and_cfr_plus_solves_the_whole_round() -> None:
    """OpenSpiel's `efg_game` wants each node's set written in full (Gambit reads both): it reads the whole
    Commissario round as a zero-sum game, and its compiled CFR+ approaches the LP's value, -1 for seat 0."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import expected_game_score

    from tabletop_edu.commissario.game_tree import round_tree, small_round

    whole = round_tree(small_round(0))
    game = pyspiel.load_efg_game(whole.to_efg())
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and game.num_players() == 2
    solver = pyspiel.CFRPlusSolver(game)

    def exploitability_after(more: int) -> float:
        for _ in range(more):
            solver.evaluate_and_update_policy()
        return float(pyspiel.exploitability(game, solver.average_policy()))

    curve = [exploitability_after(more) for more in (10, 90, 200)]  # after 10, 100 and 300 iterations
    assert curve == sorted(curve, reverse=True) and curve[-1] < 1e-3
    value = expected_game_score.policy_value(game.new_initial_state(), [solver.average_policy()] * 2)
    assert value[0] == pytest.approx(solve_zero_sum(whole).value, abs=0.01)


def test_get_adlers_questioning_tree_has_the_models_value() -> None:
    """Built from `deduction`'s model: four seats, every question, value 5/12 as `solve_questioning_game` says;
    Adler's information set is the question alone, the asker's its character (then what it heard)."""
    from tabletop_edu.get_adler.deduction import questioning_game, questioning_tree, solve_questioning_game

    whole = questioning_tree(4, asker=3, target=0)
    solution = solve_zero_sum(whole)
    print(whole, solution, sep="\n")
    assert solution.value == pytest.approx(5 / 12) == solve_questioning_game(questioning_game(4, 3, 0))[0]
    assert solution.nash_conv < 1e-9
    adler = [s for s in whole.infosets if s.player == 1]
    assert len(adler) == 12 and all(s.key[0] == "answer" for s in adler)
    drawn = get_adler_tree()
    small = solve_zero_sum(drawn)
    print(drawn, small, sep="\n")
    assert small.nash_conv < 1e-9 and 0.5 <= small.value <= 1


def test_mafias_testimony_tree_checks_the_talk_games_equilibria() -> None:
    """Babbling and pooling on "took driver" leave nobody a gain in the tree, as `deviation_gains` says; truthful
    talk leaves the thieves a gain; Gambit's lcp_solve, when installed, finds an equilibrium too."""
    from tabletop_edu.mafia_de_cuba.cheap_talk import (babbling, lying_thieves, testimony_profile, testimony_tree,
                                                       truthful)
    from tabletop_edu.trees import gains

    speaker = mafia_speaker()
    whole = testimony_tree(speaker)
    assert whole.size() == {"nodes": 364, "chance": 1, "decision": 63, "terminal": 300, "infosets": 23}
    for policy in (babbling(speaker, {"took driver": 1.0}), lying_thieves(speaker, "took driver")):
        profile = testimony_profile(whole, policy, speaker.best_response(policy))
        assert nash_conv(whole, profile) < 1e-12
    truth = truthful(speaker)
    assert gains(whole, testimony_profile(whole, truth, speaker.best_response(truth)))[0] > 0.5
    drawn = mafia_tree()
    pooled = lying_thieves(speaker, "took driver")
    profile = testimony_profile(drawn, pooled, speaker.best_response(pooled))
    print(drawn, f"pooling on 'took driver': payoffs {expected_payoffs(drawn, profile)}, NashConv "
          f"{nash_conv(drawn, profile):.2g}", sep="\n")
    assert nash_conv(drawn, profile) < 1e-12
    try:
        import pygambit  # noqa: F401
    except ImportError:
        return
    for payoffs, regret in gambit_equilibria(drawn, "lcp"):
        assert regret < 1e-6


@pytest.mark.parametrize("game", sorted(GAME_TREES))
def test_each_games_tree_is_small_drawn_with_its_sets_and_exported(game) -> None:
    tree = GAME_TREES[game]()
    assert tree.size()["terminal"] <= 40
    svg = tree.svg()
    assert all(f'data-infoset="{s.label}"' in svg for s in tree.infosets)
    assert read_efg(to_efg(tree)).size() == tree.size()
