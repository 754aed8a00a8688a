"""The generic IS-MCTS bot: plays every game through the protocol, within its budget, reproducibly."""

from __future__ import annotations

import random

import pytest

from tabletop_edu import commissario
from tabletop_edu.examples import peek
from tabletop_edu.ismcts import InformationSetSearch, bind_worlds, cutoff_rewards
from tabletop_edu.tournament import run_tournament


def test_builds_worlds_from_the_view_when_the_game_can() -> None:
    state = commissario.new_game(3, seed=4)
    bot = InformationSetSearch(iterations=6, worlds=2)
    seat = state.acting_seats[0]
    action = bot.choose(state.view(seat), state.legal_actions(seat), random.Random(0))
    assert action in state.legal_actions(seat)


def test_needs_a_referee_sampler_for_games_without_world_from_view() -> None:
    state = peek.new_game(3, seed=1)
    bot = InformationSetSearch(iterations=8)
    with pytest.raises(RuntimeError, match="bind_worlds"):
        bot.choose(state.view(0), state.legal_actions(0), random.Random(0))
    bind_worlds(bot, state, 0)
    assert bot.choose(state.view(0), state.legal_actions(0), random.Random(0)) in state.legal_actions(0)


def test_same_rng_same_choice() -> None:
    state = peek.new_game(3, seed=2)
    picks = set()
    for _ in range(2):
        bot = InformationSetSearch(iterations=20)
        bind_worlds(bot, state, 0)
        picks.add(str(bot.choose(state.view(0), state.legal_actions(0), random.Random(7))))
    assert len(picks) == 1


def test_guesses_a_card_it_has_peeked_at() -> None:
    """Peek: once it knows a card, guessing it right is the clear best move, and the search finds it."""
    state = peek.new_game(2, seed=3)
    state.apply("peek 1", player=0)
    state.apply("pass", player=1)
    bot = InformationSetSearch(iterations=60)
    bind_worlds(bot, state, 0)
    card = state.view(0).facts["known_cards"][1]
    assert str(bot.choose(state.view(0), state.legal_actions(0), random.Random(0))) == f"guess 1 {card}"


def test_cutoff_rewards_share_the_lead() -> None:
    state = peek.new_game(2, seed=0)
    assert cutoff_rewards(state) == [0.5, 0.5]


def test_beats_random_at_peek() -> None:
    result = run_tournament("peek", ["random", "ismcts(iterations=24)"], players=2, games=40, seed=0)
    rows = {row.bot: row for row in result.rows()}
    assert rows["ismcts(iterations=24)"].mean_score > rows["random"].mean_score


def test_pickles_without_its_bound_sampler() -> None:
    import pickle
    bot = InformationSetSearch(iterations=3)
    bind_worlds(bot, peek.new_game(2, seed=0), 0)
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.bound_sampler is None and copy.iterations == 3


def test_cutoff_rewards_grow_with_the_lead() -> None:
    state = peek.new_game(3, seed=0)
    state.scores = [3, 1, 0]
    leader, second, last = cutoff_rewards(state)
    assert leader > 0.5 > second > last > 0.0
    state.scores = [5, 1, 0]
    assert cutoff_rewards(state)[0] > leader  # a larger lead is worth more


class CountingGreedy:
    """Commissario's greedy bot, counting the playout moves it is asked for."""

    name = "counting"
    calls = 0

    def choose(self, view, legal_actions, rng):  # type: ignore[no-untyped-def]
        from tabletop_edu.commissario.bots import GreedyBot
        CountingGreedy.calls += 1
        assert view.seat is not None and list(legal_actions)  # a seat's view of an imagined world
        return GreedyBot().choose(view, legal_actions, rng)


def test_playouts_are_played_by_the_named_bot_of_the_game() -> None:
    state = commissario.new_game(2, seed=4)
    seat = state.acting_seats[0]
    bot = InformationSetSearch(iterations=6, worlds=2, rollout="greedy", rollout_depth=5)
    picks = {str(bot.choose(state.view(seat), state.legal_actions(seat), random.Random(1))) for _ in range(2)}
    assert len(picks) == 1 and picks <= {str(a) for a in state.legal_actions(seat)}
    spy = InformationSetSearch(iterations=6, worlds=2, rollout="greedy", rollout_depth=5)
    spy._policies["tabletop_edu.commissario"] = CountingGreedy()
    spy.choose(state.view(seat), state.legal_actions(seat), random.Random(1))
    assert CountingGreedy.calls > 6  # every iteration's playout asked the policy, step after step
    with pytest.raises(ValueError, match="playout policy"):
        InformationSetSearch(rollout="ismcts(iterations=2)")
    with pytest.raises(ValueError, match="Unknown bot"):
        InformationSetSearch(iterations=2, rollout="nobody").choose(state.view(seat), state.legal_actions(seat),
                                                                    random.Random(0))


def test_a_tree_of_depth_one_searches_only_the_bots_own_move() -> None:
    from tabletop_edu.ismcts import Node

    state = commissario.new_game(2, seed=4)
    seat = state.acting_seats[0]
    roots: list[Node] = []
    bot = InformationSetSearch(iterations=10, worlds=2, rollout="greedy", rollout_depth=4, tree_depth=1)
    original = bot._iterate
    bot._iterate = lambda root, *rest: (roots.append(root), original(root, *rest))  # type: ignore[method-assign]
    bot.choose(state.view(seat), state.legal_actions(seat), random.Random(0))
    root = roots[0]
    assert sum(child.visits for child in root.children.values()) == 10
    assert all(not child.children for child in root.children.values())


def test_referees_bind_worlds_to_every_bot_that_asks_for_them() -> None:
    class Asks:
        bound_sampler = None

    class DoesNot:
        pass

    state = peek.new_game(2, seed=0)
    asking, other = Asks(), DoesNot()
    bind_worlds(asking, state, 1)
    bind_worlds(other, state, 1)
    assert asking.bound_sampler is not None and not hasattr(other, "bound_sampler")
    assert asking.bound_sampler(random.Random(0)).view(1) == state.view(1)


def test_the_first_iterations_go_to_the_playout_bots_own_move() -> None:
    from tabletop_edu.commissario.bots import GreedyBot
    from tabletop_edu.ismcts import Node

    state = commissario.new_game(2, seed=4)
    seat = state.acting_seats[0]
    roots: list[Node] = []
    bot = InformationSetSearch(iterations=12, worlds=2, rollout="greedy", rollout_depth=4, prior=9)
    original = bot._iterate
    bot._iterate = lambda root, *rest: (roots.append(root), original(root, *rest))  # type: ignore[method-assign]
    bot.choose(state.view(seat), state.legal_actions(seat), random.Random(0))
    greedy_move = str(GreedyBot().choose(state.view(seat), state.legal_actions(seat), random.Random(0)))
    assert roots[0].children[greedy_move].visits >= 9
    assert sum(child.visits for child in roots[0].children.values()) == 12


def test_the_root_choice_is_checked() -> None:
    with pytest.raises(ValueError, match="root= is one of ucb, halving"):
        InformationSetSearch(root="widest")


def test_halving_keeps_the_playout_bots_move_when_nothing_is_better(monkeypatch: pytest.MonkeyPatch) -> None:
    """When every move is worth the same, sequential halving plays what the playout bot would, not an
    arbitrary move (here every playout is scored alike)."""
    from tabletop_edu import ismcts
    from tabletop_edu.commissario.bots import GreedyBot

    monkeypatch.setattr(ismcts, "cutoff_rewards", lambda state: [0.5] * len(state.players))
    state = commissario.new_game(2, seed=4)
    while True:  # on to a choice where greedy's move is not simply the first one in order
        seat = state.acting_seats[0]
        legal = state.legal_actions(seat)
        greedy_move = GreedyBot().choose(state.view(seat), legal, random.Random(3))
        if len(legal) > 2 and str(greedy_move) != min(map(str, legal)):
            break
        state.apply(greedy_move, player=seat)
    bot = InformationSetSearch(iterations=40, worlds=4, rollout="greedy", rollout_depth=2, tree_depth=1,
                               root="halving")
    assert bot.choose(state.view(seat), legal, random.Random(3)) == greedy_move


def test_halving_finds_the_clearly_better_move() -> None:
    """Three rounds of Peek, playouts cut one move later: a right guess is a point of lead, every other move
    none (at the end a shared win and a win alone both count 1, so the cut is what tells them apart)."""
    state = peek.new_game(2, seed=3, rules=peek.Rules(rounds=3))
    state.apply("peek 1", player=0)
    state.apply("pass", player=1)
    bot = InformationSetSearch(iterations=120, root="halving", tree_depth=1, rollout_depth=1)
    bind_worlds(bot, state, 0)
    card = state.view(0).facts["known_cards"][1]
    assert str(bot.choose(state.view(0), state.legal_actions(0), random.Random(0))) == f"guess 1 {card}"


def test_halving_compares_moves_on_the_same_worlds_with_the_same_dice() -> None:
    """Common random numbers: in every round, each remaining move is played out from the same imagined
    worlds with the same playout dice, so the survivors are compared on equal luck, sample for sample."""
    from tabletop_edu.commissario.bots import GreedyBot

    state = commissario.new_game(2, seed=4)
    while len(state.legal_actions(state.acting_seats[0])) < 10:  # on to the picks: many moves to halve
        seat = state.acting_seats[0]
        state.apply(GreedyBot().choose(state.view(seat), state.legal_actions(seat), random.Random(0)), player=seat)
    seat = state.acting_seats[0]
    bot = InformationSetSearch(iterations=120, worlds=3, rollout="greedy", rollout_depth=6, tree_depth=1,
                               root="halving")
    samples: dict[str, list[tuple[int, object]]] = {}
    original = bot._iterate

    def spy(root, world, policy, rng, first=None, me=None):  # type: ignore[no-untyped-def]
        samples.setdefault(first, []).append((world.fingerprint(), rng.getstate()))
        return original(root, world, policy, rng, first, me)

    bot._iterate = spy  # type: ignore[method-assign]
    chosen = str(bot.choose(state.view(seat), state.legal_actions(seat), random.Random(2)))
    counts = sorted(len(drawn) for drawn in samples.values())
    finalists = [move for move, drawn in samples.items() if len(drawn) == counts[-1]]
    assert len(samples) == len(state.legal_actions(seat)) and counts[0] < counts[-1]  # every move, then fewer
    assert chosen in finalists and len(finalists) >= 2
    for move in finalists[1:]:
        assert samples[move] == samples[finalists[0]]  # the same worlds and dice, in the same order
    assert len({str(dice) for _, dice in samples[chosen]}) == counts[-1]  # fresh dice for every sample


def test_halving_chooses_for_its_own_seat_when_seats_choose_at_once() -> None:
    """Commissario's picks are secret and simultaneous: the move searched is the bot's own, played by its
    seat in the imagined worlds, whichever seat is listed first."""
    from tabletop_edu.commissario.bots import GreedyBot

    state = commissario.new_game(3, seed=5)
    while len(state.acting_seats) < 2:
        seat = state.acting_seats[0]
        state.apply(GreedyBot().choose(state.view(seat), state.legal_actions(seat), random.Random(0)), player=seat)
    last = state.acting_seats[-1]
    bot = InformationSetSearch(iterations=24, worlds=2, rollout="greedy", rollout_depth=0, tree_depth=1,
                               root="halving")
    played: list[tuple[int, ...]] = []
    original = bot._iterate

    def spy(root, world, policy, rng, first=None, me=None):  # type: ignore[no-untyped-def]
        original(root, world, policy, rng, first, me)
        played.append(tuple(world.acting_seats))  # only the searched move was played (no playout)

    bot._iterate = spy  # type: ignore[method-assign]
    assert bot.choose(state.view(last), state.legal_actions(last), random.Random(0)) in state.legal_actions(last)
    assert played and all(last not in seats and state.acting_seats[0] in seats for seats in played)


def test_halving_with_a_playout_bot_plays_get_adler_from_a_line_up() -> None:
    """The benchmark's Get Adler search, at a small budget, named in a line-up as a teacher would."""
    search = "ismcts(iterations=12, worlds=3, rollout='smart', rollout_depth=None, tree_depth=1, root='halving')"
    result = run_tournament("get_adler", ["smart", search], players=4, games=1, seed=3)
    assert not result.failures and len(result.finished) == 1
    assert {row.bot for row in result.rows()} == {"smart", search}
