"""Worlds of Get Adler drawn from one seat's view alone: the determinizations behind `resample`.

A world is a full game whose view, for the seat, is exactly the seat's view: same characters as far as the
seat can tell, same cards where it saw them, and a whole history that leads there. It is built from the view
and an rng only, never from the true game, so a bot searching worlds learns nothing its seat could not know.

How a world is drawn (`build_world`, behind `GetAdlerState.world_from_view`):

1. **Characters**: uniformly among the assignments the view allows (`deduction.worlds_for_view`: the seat's
   own character, the public answers (Adler's bind nobody unless `adler_may_lie` is off), the wrong arrests
   and any reveal).
2. **Cards**: the log is read as a list of card movements (deals, draws, discards, magnifying glasses,
   binoculars, reshuffles, Adler's documents at the end). Every card is a token whose kind is fixed once the
   seat has seen it; tokens it never saw stay open, each tied to the pool its kind comes from (the first
   deck, or the discard pile of a reshuffle, whose cards everyone saw). Where the seat did not see which
   card moved (a binoculars exchange between two other seats), a token is picked with the chance the game
   gives it (each card of the hand alike; the search tries first the picks that leave cards where the log
   later shows them); where a card the seat saw leave a hand could come from two pools, each pool is tried
   with its chance of holding it; a card the seat saw leave a hand is the one it knew of there, when it
   knew one. A depth-first search backs up to the latest pick a contradiction depends on
   (conflict-directed backjumping). The open tokens then get their pools' unseen cards uniformly at random
   (Adler's hand taking exactly the documents announced at the end).
3. **History**: the moves are read back from the log (each action's first event names its seat and the
   public part of the move); the engine replays them on the drawn deal, its chance draws (the shuffles and
   the binoculars' random takes) scripted to give the drawn cards.

So worlds follow the chances of the game for the hidden cards, conditioned on what the seat saw, but not
exactly the posterior: the first explanation the search finds is kept (not one drawn in proportion to all
of them), and the other seats' own choices (which card they gave, what they discarded) are not read as
evidence about their hands. A world is a plausible past, not a posterior weighted by how people play.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, Union

from ..core import Action, Event, GameState, IllegalAction, Seat, View
from .actions import AIMED_AT, ANSWERS, DISCARDS, GIVES, PASS, RESPONSES, SKIP, SURRENDER, Ask
from .identities import worlds_for_view
from .rules import Rules, deck_for

#: The engine's state class (this module imports no engine: the engine imports it, see the package's docstring).
WorldT = TypeVar("WorldT", bound=GameState[Any])

# ------------------------------------------------------------------------------------- reading the log


@dataclass(frozen=True)
class _Op:
    """One card movement or observation, in the order the game made it.

    kinds: "deal" (seat, cards or None, count), "draw" (seat, card or None), "reshuffle" (count),
    "lose" (seat discards card face up), "look" (target's whole hand is cards), "move" (seat gives one card,
    `card` if seen, to `other`), "documents" (seat ends holding `count` documents)."""

    kind: str
    seat: int = -1
    card: str | None = None
    cards: tuple[str, ...] | None = None
    count: int = 0
    other: int = -1
    #: For "move": which move of the history it fills ("give"), or that the engine draws it ("take").
    role: str = ""
    move_index: int = -1


@dataclass
class _Replay:
    """What the log says: the card operations and the moves (a give's card is filled in later)."""

    ops: list[_Op] = field(default_factory=list)
    moves: list[tuple[Seat, Action | None]] = field(default_factory=list)


def _read_log(log: Sequence[Event]) -> _Replay:
    """The card operations and the moves behind a log (as the seat saw it)."""
    replay = _Replay()
    ops, moves = replay.ops, replay.moves
    for event in log:
        data: Mapping[str, Any] = event.data
        kind = event.kind
        if kind == "deal":
            cards = tuple(data["cards"]) if "cards" in data else None
            ops.append(_Op("deal", data["seat"], cards=cards, count=len(cards) if cards else data["count"]))
        elif kind == "draw":
            ops.append(_Op("draw", data["seat"], card=data.get("card")))
        elif kind == "reshuffle":
            ops.append(_Op("reshuffle", count=data["size"]))
        elif kind == "end" and "documents" in data:
            ops.append(_Op("documents", data["adler"], count=data["documents"]))
        if event.actor is None:
            continue
        seat = event.actor
        move, lost = _move_of(event)
        if lost is not None:
            ops.append(_Op("lose", seat, card=lost))
        if kind == "magnify" and "cards" in data:
            ops.append(_Op("look", data["target"], cards=tuple(data["cards"])))
        elif kind == "binoculars":
            ops.append(_Op("move", data["target"], card=data.get("taken"), other=seat, role="take"))
        elif kind == "give":
            ops.append(_Op("move", seat, card=data.get("card"), other=data["target"], role="give",
                           move_index=len(moves)))
        moves.append((seat, move))
    return replay


#: The engine's own action values (already known canonical, so replaying them skips re-reading their text).
_ASKS: dict[tuple[int, str, str], Ask] = {(ask.target, ask.trait, ask.colour): ask
                                          for aimed in AIMED_AT for ask in aimed.asks}


def _move_of(event: Event) -> tuple[Action | None, str | None]:
    """The move an action's first event reports, and the card it put on the discard pile (if any).
    A give seen only as "X gives Y a card" is None: its card is drawn later."""
    data = event.data
    kind = event.kind
    if kind == "discard":
        return DISCARDS[data["card"]], data["card"]
    if kind == "ask":
        return _ASKS[data["target"], data["trait"], data["colour"]], "question"
    if kind == "answer":
        return ANSWERS[data["answer"]], None
    if kind == "magnify":
        return AIMED_AT[data["target"]].magnify, "magnify"
    if kind == "binoculars":
        return AIMED_AT[data["target"]].binoculars, "binoculars"
    if kind == "give":
        return (GIVES[data["card"]] if "card" in data else None), None
    if kind == "arrest":
        return AIMED_AT[data["target"]].arrest, "arrest"
    if kind == "respond":
        return RESPONSES[data["card"]], data["card"]
    if kind in ("pass", "shot"):
        return PASS, None
    if kind == "skip":
        return SKIP, None
    if kind == "end":
        return (SURRENDER if data.get("how") == "surrender" else PASS), None
    raise ValueError(f"a Get Adler log holds an action event of unknown kind {kind!r}")


# ------------------------------------------------------------------------------------- the card search

#: Choices of the search that something depends on, named by the index of their operation.
Reasons = frozenset[int]
NO_REASON: Reasons = frozenset()


class _Contradiction(Exception):
    """The choices made so far cannot explain what the seat saw next; `reasons` are the choices to blame."""

    def __init__(self, reasons: Reasons = NO_REASON) -> None:
        super().__init__()
        self.reasons = reasons


class _Restart(Exception):
    """A search attempt spent its budget: start again with a new order of alternatives."""


#: Alternatives a first search attempt may try before starting again (each new attempt may try twice as many).
RESTART_BUDGET = 64

#: A token's class: its kind once fixed, else the number of the pool its kind will come from.
TokenClass = Union[str, int]


@dataclass
class _Tokens:
    """Every card in play as a token: where it is, and its kind once fixed (None: still open).

    Reasons follow the outcome of each operation: what it changes depends on every choice behind what it
    read (the hand, and the pools' counts of the kinds it shows), plus its own choice if it is one.

    An open token takes its kind, when something shows it, from its pool: pool 0 is the first deck; pool r
    is the discard pile shuffled at the r-th reshuffle, whose kinds everyone saw (a reshuffle puts new open
    tokens in the deck, one per card of the pile). Open tokens of one pool in one place are interchangeable,
    which keeps the search small. `hand_reasons` names the choices each hand's content depends on, and
    `pool_reasons` those each pool's count of each kind depends on (conflict-directed backjumping)."""

    kinds: list[str | None]
    pool_of: list[int]
    pools: list[Counter[str]]          # per pool, the kinds not yet given to one of its tokens
    hands: list[list[int]]
    hand_reasons: list[Reasons]
    pool_reasons: dict[tuple[int, str], Reasons]
    fresh: int = 0                     # tokens dealt from the first deck so far
    deck: list[int] = field(default_factory=list)   # open tokens of the current reshuffled deck
    pile: list[int] = field(default_factory=list)
    moved: dict[int, Any] = field(default_factory=dict)   # op index -> token moved (a reshuffle: its tokens)
    no_documents: tuple[int, ...] = ()  # open tokens that must not be documents (Adler's, at the end)

    def copy(self) -> _Tokens:
        return _Tokens(list(self.kinds), list(self.pool_of), [Counter(pool) for pool in self.pools],
                       [list(hand) for hand in self.hands], list(self.hand_reasons), dict(self.pool_reasons),
                       self.fresh, list(self.deck), list(self.pile), dict(self.moved), self.no_documents)

    def token_class(self, token: int) -> TokenClass:
        kind = self.kinds[token]
        return self.pool_of[token] if kind is None else kind

    def classes(self, place: list[int]) -> Counter[TokenClass]:
        return Counter(self.token_class(token) for token in place)

    def open_pools(self, seat: int) -> dict[int, int]:
        """How many open tokens of each pool `seat`'s hand holds."""
        counts: dict[int, int] = {}
        kinds, pool_of = self.kinds, self.pool_of
        for token in self.hands[seat]:
            if kinds[token] is None:
                pool = pool_of[token]
                counts[pool] = counts.get(pool, 0) + 1
        return counts

    def reasons_of(self, seat: int, kinds: Iterable[str] | None = None) -> Reasons:
        """The choices `seat`'s hand depends on, with those behind its open tokens' pools holding `kinds`
        (None: any kind)."""
        reasons = self.hand_reasons[seat]
        if self.pool_reasons:
            pools = self.open_pools(seat)
            for (pool, kind), more in self.pool_reasons.items():
                if pool in pools and (kinds is None or kind in kinds):
                    reasons |= more
        return reasons

    def all_reasons(self) -> Reasons:
        return frozenset().union(*self.hand_reasons, *self.pool_reasons.values())

    def key(self, index: int) -> tuple[Any, ...]:
        """Everything the rest of the search depends on."""
        hands = tuple(tuple(sorted(self.classes(hand).items(), key=_class_order)) for hand in self.hands)
        pools = tuple(tuple(sorted(pool.items())) for pool in self.pools)
        return index, self.fresh, len(self.deck), hands, pools

    def fix(self, token: int, kind: str, reasons: Reasons) -> None:
        """Fix an open token's kind, taken from its pool, which from now on depends on `reasons` too."""
        pool = self.pool_of[token]
        if self.pools[pool][kind] <= 0:
            raise _Contradiction
        self.pools[pool][kind] -= 1
        if reasons:
            self.pool_reasons[pool, kind] = self.pool_reasons.get((pool, kind), NO_REASON) | reasons
        self.kinds[token] = kind

    def take(self, place: list[int], token_class: TokenClass) -> int:
        """A token of `token_class` out of `place`."""
        for token in place:
            if self.token_class(token) == token_class:
                place.remove(token)
                return token
        raise _Contradiction

    def mint(self, pool: int) -> int:
        self.kinds.append(None)
        self.pool_of.append(pool)
        return len(self.kinds) - 1


def _class_order(item: tuple[TokenClass, int]) -> tuple[bool, str]:
    return isinstance(item[0], int), str(item[0])


#: One way to explain an operation: applied to tokens with the reasons it adds (its choice, if it is one).
Apply = Callable[[_Tokens, Reasons], None]
Alternative = tuple[float, Apply]


def _ordered(alternatives: list[Alternative], rng: random.Random) -> list[Apply]:
    """The alternatives in an order drawn by their weights (the likelier pasts first)."""
    left = list(alternatives)
    order = []
    while left:
        point = rng.random() * sum(weight for weight, _ in left)
        for number, (weight, _) in enumerate(left):
            point -= weight
            if point < 0:
                break
        order.append(left.pop(number)[1])
    return order


@dataclass
class _Frame:
    """A choice of the search: the tokens before it, the alternatives still to try, and the choices to blame
    if none works (those its alternatives depended on, and those behind the failures of the ones tried)."""

    index: int
    tokens: _Tokens
    options: list[Apply]
    key: tuple[Any, ...]
    blame: set[int]


class _Search:
    """Depth-first search for token moves explaining every operation of the log, in the game's order.

    Deterministic where one explanation is as good as any other (a card leaving a hand is one the seat knew
    there, if any: the open tokens stay open for later); a choice where they differ: which card changed hands
    unseen (each token of the hand equally likely), or, when a hand holds open tokens of several pools, which
    pool a card shown there came from (weighted by how likely each pool is to hold it). A contradiction
    backs up straight to the latest choice it depends on (conflict-directed backjumping), and states known
    to fail are remembered, so a bad early choice costs little even in a long game."""

    def __init__(self, ops: list[_Op], total: int, composition: Counter[str], players: int,
                 rng: random.Random) -> None:
        self.ops, self.total, self.rng = ops, total, rng
        self.start = _Tokens([None] * total, [0] * total, [Counter(composition)], [[] for _ in range(players)],
                             [NO_REASON] * players, {})
        self.failed: set[tuple[Any, ...]] = set()
        self.needs = _needs(ops, players)

    def run(self) -> _Tokens:
        """The first explanation found. A search that has tried `budget` alternatives starts again with a
        fresh order of alternatives and a budget twice as large (randomized restarts: an unlucky early
        choice can cost much, a new draw rarely makes it again); the states known to fail are kept, so the
        search is complete and its result depends only on the view and the rng."""
        budget = RESTART_BUDGET
        while True:
            try:
                return self._attempt(budget)
            except _Restart:
                budget *= 2

    def _attempt(self, budget: int) -> _Tokens:
        """One depth-first search, giving up after `budget` alternatives (an explicit stack of choices, so
        long games cannot overflow)."""
        ops = self.ops
        stack: list[_Frame] = []
        index, tokens = 0, self.start.copy()
        self.budget = budget
        while True:
            try:
                while index < len(ops):
                    op = ops[index]
                    try:
                        alternatives = self._step(index, op, tokens)
                        if alternatives is not None and len(alternatives) <= 1:
                            if not alternatives:
                                raise _Contradiction
                            alternatives[0][1](tokens, NO_REASON)
                            alternatives = None
                    except _Contradiction as error:
                        # read after the failure: a failing step only ever adds reasons, so this is a
                        # superset of what it read, which blames enough (if not always the fewest)
                        raise _Contradiction(error.reasons | self._reads(op, tokens)) from None
                    if alternatives is not None:
                        break
                    index += 1
                else:
                    return tokens
                key = tokens.key(index)
                if key in self.failed:
                    raise _Contradiction(tokens.all_reasons())
                reasons = self._reads(ops[index], tokens)
                stack.append(_Frame(index, tokens, _ordered(alternatives, self.rng), key, set(reasons)))
                blame: Reasons | None = None
            except _Contradiction as error:
                blame = error.reasons
            index, tokens = self._resume(stack, blame)

    def _resume(self, stack: list[_Frame], blame: Reasons | None) -> tuple[int, _Tokens]:
        """The next alternative to explore: after a contradiction, at the latest choice to blame for it (the
        choices passed over would fail the same way, so their states are remembered as failed)."""
        while True:
            if blame is not None:
                while stack and stack[-1].index not in blame:
                    self.failed.add(stack.pop().key)
                if not stack:
                    raise RuntimeError("Get Adler: no deal explains this view (a bug: every real view has one).")
                stack[-1].blame |= blame - {stack[-1].index}
            frame = stack[-1]
            if not frame.options:
                self.failed.add(stack.pop().key)
                blame = frozenset(frame.blame)
                continue
            self.budget -= 1
            if self.budget < 0:
                raise _Restart
            tokens = frame.tokens.copy()
            choice = frozenset((frame.index,))
            reasons = self._reads(self.ops[frame.index], tokens)
            try:
                frame.options.pop(0)(tokens, choice)
            except _Contradiction:
                blame = reasons | choice
                continue
            return frame.index + 1, tokens

    def _reads(self, op: _Op, tokens: _Tokens) -> Reasons:
        """The choices the outcome of `op` depends on: those behind the hand it reads, and behind the counts
        of the kinds it shows in the pools it may take them from."""
        kind = op.kind
        if kind == "move" and op.card is None:
            return tokens.hand_reasons[op.seat]
        if kind in ("lose", "move"):
            assert op.card is not None  # a "lose" is made with the card shown; a "move" without one returned above
            return tokens.reasons_of(op.seat, (op.card,))
        if kind == "look":
            return tokens.reasons_of(op.seat, op.cards)
        if kind == "documents":
            return tokens.reasons_of(op.seat)
        shown = op.cards if kind == "deal" else (op.card,) if kind == "draw" else None
        if not shown:
            return NO_REASON
        pool = 0 if tokens.fresh < self.total else len(tokens.pools) - 1
        return frozenset().union(*(tokens.pool_reasons.get((pool, card), NO_REASON) for card in shown if card))

    def _new_token(self, tokens: _Tokens) -> int:
        if tokens.fresh >= self.total:
            raise _Contradiction
        tokens.fresh += 1
        return tokens.fresh - 1

    def _step(self, index: int, op: _Op, tokens: _Tokens) -> list[Alternative] | None:
        """Carry out `op`, or return its alternatives when explanations may differ."""
        kind = op.kind
        if kind == "deal":
            for number in range(op.count):
                token = self._new_token(tokens)
                if op.cards is not None:
                    _fix_drawn(tokens, token, op.cards[number])
                tokens.hands[op.seat].append(token)
        elif kind == "draw":
            if tokens.fresh < self.total:
                token = self._new_token(tokens)
            elif tokens.deck:
                token = tokens.deck.pop()
            else:
                raise _Contradiction
            if op.card is not None:
                _fix_drawn(tokens, token, op.card)
            tokens.hands[op.seat].append(token)
            tokens.moved[index] = token
        elif kind == "reshuffle":
            if tokens.fresh < self.total or tokens.deck or len(tokens.pile) != op.count:
                raise _Contradiction
            pool = len(tokens.pools)
            tokens.pools.append(Counter(tokens.kinds[t] or "" for t in tokens.pile))
            tokens.deck = [tokens.mint(pool) for _ in tokens.pile]
            tokens.pile = []
            tokens.moved[index] = tuple(tokens.deck)
        elif kind == "lose":
            return _shown_leaving(tokens, index, op.seat, op.card or "", None)
        elif kind == "move":
            if op.card is not None:
                return _shown_leaving(tokens, index, op.seat, op.card, op.other)
            return _unseen_leaving(tokens, index, op.seat, op.other, self.needs[index])
        elif kind == "look":
            return _looked(tokens, op.seat, Counter(op.cards or ()))
        elif kind == "documents":
            return _documents(tokens, op.seat, op.count)
        return None


def _fix_drawn(tokens: _Tokens, token: int, card: str) -> None:
    """A card the seat saw drawn: its pool must still hold it (or blame what emptied the pool of it)."""
    try:
        tokens.fix(token, card, NO_REASON)
    except _Contradiction:
        raise _Contradiction(tokens.pool_reasons.get((tokens.pool_of[token], card), NO_REASON)) from None


def _shown_leaving(tokens: _Tokens, index: int, seat: int, card: str, receiver: int | None) -> list[Alternative]:
    """A card of kind `card` leaves `seat`'s hand, seen: to the discard pile (`receiver` None) or a hand."""
    def leave(token_class: TokenClass) -> Apply:
        def apply(world: _Tokens, choice: Reasons) -> None:
            # which token leaves depends on the hand and on which pools still hold `card`
            reasons = world.reasons_of(seat, (card,)) | choice
            token = world.take(world.hands[seat], token_class)
            if isinstance(token_class, int):
                world.fix(token, card, reasons)
            world.hand_reasons[seat] = reasons
            (world.pile if receiver is None else world.hands[receiver]).append(token)
            world.moved[index] = token
        return apply

    if any(tokens.kinds[t] == card for t in tokens.hands[seat]):
        return [(1.0, leave(card))]
    return [(count * tokens.pools[pool][card] / max(1, sum(tokens.pools[pool].values())), leave(pool))
            for pool, count in sorted(tokens.open_pools(seat).items()) if tokens.pools[pool][card] > 0]


def _needs(ops: list[_Op], players: int) -> dict[int, tuple[Counter[str], Counter[str]]]:
    """For each unseen move, the kinds its giver and its receiver will have to show later (before a
    magnifying glass shows their whole hand again): a guide for the search, which tries first the moves
    that keep those kinds where they will be shown."""
    pending = [Counter[str]() for _ in range(players)]
    needs: dict[int, tuple[Counter[str], Counter[str]]] = {}
    for index in range(len(ops) - 1, -1, -1):
        op = ops[index]
        if op.kind == "move" and op.card is None:
            needs[index] = Counter(pending[op.seat]), Counter(pending[op.other])
        elif op.kind in ("lose", "move") and op.card is not None:
            pending[op.seat][op.card] += 1
            if op.kind == "move" and pending[op.other][op.card] > 0:
                pending[op.other][op.card] -= 1
        elif op.kind == "look":
            pending[op.seat] = Counter(op.cards or ())
        elif op.kind == "documents":
            pending[op.seat]["document"] += op.count
    return needs


def _unseen_leaving(tokens: _Tokens, index: int, seat: int, receiver: int,
                    needs: tuple[Counter[str], Counter[str]]) -> list[Alternative]:
    """A card the seat did not see goes from `seat` to `receiver`: each token of the hand equally likely,
    except that a known card the giver will have to show later is tried last, and one the receiver will
    have to show is tried first (the order only guides the search)."""
    def move(token_class: TokenClass) -> Apply:
        def apply(world: _Tokens, choice: Reasons) -> None:
            token = world.take(world.hands[seat], token_class)
            world.hands[receiver].append(token)
            world.hand_reasons[receiver] |= world.hand_reasons[seat] | choice
            world.hand_reasons[seat] |= choice
            world.moved[index] = token
        return apply

    giver_needs, receiver_needs = needs
    held = tokens.classes(tokens.hands[seat])
    received = tokens.classes(tokens.hands[receiver])
    alternatives: list[Alternative] = []
    for token_class, count in sorted(held.items(), key=_class_order):
        weight = float(count)
        if isinstance(token_class, str):
            if giver_needs[token_class] >= held[token_class]:
                weight /= 50
            if receiver_needs[token_class] > received[token_class]:
                weight *= 50
        alternatives.append((weight, move(token_class)))
    return alternatives


def _splits(needed: Counter[str], groups: list[tuple[int, int]], pools: list[Counter[str]]) -> list[list[Counter[str]]]:
    """Every way to share the kinds `needed` among groups of open tokens (pool, size), each group taking
    exactly its size in kinds its pool still has."""
    if not groups:
        return [[]] if not +needed else []
    (pool, size), rest = groups[0], groups[1:]
    found = []
    for part in _sub_multisets(needed, size, pools[pool]):
        found += [[part, *others] for others in _splits(needed - part, rest, pools)]
    return found


def _sub_multisets(needed: Counter[str], size: int, available: Counter[str]) -> list[Counter[str]]:
    kinds = sorted(kind for kind in needed if needed[kind] > 0)
    found: list[Counter[str]] = []

    def extend(position: int, left: int, part: Counter[str]) -> None:
        if left == 0:
            found.append(Counter(part))
            return
        if position == len(kinds):
            return
        kind = kinds[position]
        for count in range(min(left, needed[kind], available[kind]), -1, -1):
            part[kind] = count
            extend(position + 1, left - count, part)
        del part[kind]

    extend(0, size, Counter())
    return found


def _looked(tokens: _Tokens, seat: int, seen: Counter[str]) -> list[Alternative]:
    """A magnifying glass showed `seat`'s whole hand: known tokens must be among `seen`, open ones the rest.
    Afterwards the hand is exactly `seen`, whatever was chosen before: its content owes nothing to choices."""
    hand = tokens.hands[seat]
    if len(hand) != sum(seen.values()):
        raise _Contradiction
    rest = Counter(seen)
    rest.subtract(Counter(k for k in (tokens.kinds[t] for t in hand) if k is not None))
    if any(count < 0 for count in rest.values()):
        raise _Contradiction
    groups = sorted(tokens.open_pools(seat).items())

    def assign(split: list[Counter[str]]) -> Apply:
        def apply(world: _Tokens, choice: Reasons) -> None:
            reasons = world.reasons_of(seat, seen) | choice
            for (pool, _), part in zip(groups, split):
                open_tokens = [t for t in world.hands[seat] if world.kinds[t] is None and world.pool_of[t] == pool]
                for token, kind in zip(open_tokens, sorted(part.elements())):
                    world.fix(token, kind, reasons)
            world.hand_reasons[seat] = NO_REASON
        return apply

    return [(1.0, assign(split)) for split in _splits(+rest, groups, tokens.pools)]


def _documents(tokens: _Tokens, seat: int, count: int) -> list[Alternative]:
    """The end announced Adler's documents: exactly `count` in his hand, the other open tokens none."""
    hand = tokens.hands[seat]
    missing = count - sum(tokens.kinds[t] == "document" for t in hand)
    groups = sorted(tokens.open_pools(seat).items())

    def shares(position: int, left: int) -> list[list[int]]:
        if position == len(groups):
            return [[]] if left == 0 else []
        pool, size = groups[position]
        pool_kinds = tokens.pools[pool]
        others = sum(pool_kinds.values()) - pool_kinds["document"]
        return [[take, *rest] for take in range(min(size, left, pool_kinds["document"]), -1, -1)
                if size - take <= others for rest in shares(position + 1, left - take)]

    def assign(share: list[int]) -> Apply:
        def apply(world: _Tokens, choice: Reasons) -> None:
            reasons = world.reasons_of(seat) | choice
            no_documents: list[int] = []
            for (pool, _), take in zip(groups, share):
                open_tokens = [t for t in world.hands[seat] if world.kinds[t] is None and world.pool_of[t] == pool]
                for token in open_tokens[:take]:
                    world.fix(token, "document", reasons)
                no_documents += open_tokens[take:]
            world.no_documents = tuple(no_documents)
            world.hand_reasons[seat] = reasons
        return apply

    if missing < 0:
        raise _Contradiction
    return [(1.0, assign(share)) for share in shares(0, missing)]


def _open_kinds(tokens: _Tokens, rng: random.Random) -> None:
    """Give each pool's remaining kinds to its open tokens, uniformly (no document where the end showed
    there was none)."""
    barred = set(tokens.no_documents)
    for pool, kinds in enumerate(tokens.pools):
        left = list(kinds.elements())
        rng.shuffle(left)
        open_tokens = [t for t, kind in enumerate(tokens.kinds) if kind is None and tokens.pool_of[t] == pool]
        for token in sorted(open_tokens, key=lambda t: t not in barred):
            kind = next(k for k in left if k != "document") if token in barred else left[0]
            left.remove(kind)
            tokens.kinds[token] = kind


# ------------------------------------------------------------------------------------- building the world


class _ScriptedChance(random.Random):
    """The engine's chance draws, answered from a script: the shuffles and takes that give the drawn world."""

    def __init__(self, outcomes: list[tuple[str, Any]]) -> None:
        super().__init__(0)
        self.outcomes = deque(outcomes)

    def _next(self, kind: str) -> Any:
        if not self.outcomes or self.outcomes[0][0] != kind:
            raise RuntimeError(f"Get Adler: the rebuilt history asks for a {kind} out of turn (a bug).")
        return self.outcomes.popleft()[1]

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        return list(self._next("sample"))

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        order = self._next("shuffle")
        if sorted(order) != sorted(x):
            raise RuntimeError("Get Adler: a scripted shuffle holds other cards than the game's (a bug).")
        x[:] = order

    def choice(self, seq: Sequence[Any]) -> Any:  # type: ignore[override]
        card = self._next("choice")
        if card not in seq:
            raise RuntimeError("Get Adler: a scripted take is not in the hand (a bug).")
        return card


def _outcomes(characters: Sequence[str], tokens: _Tokens, ops: list[_Op], first_deck: int) -> list[tuple[str, Any]]:
    """The chance outcomes, in the order the engine asks for them: the characters, the first deck (its
    tokens in dealing order, the engine drawing from the end), then each reshuffle and binoculars take."""
    kinds = tokens.kinds
    outcomes: list[tuple[str, Any]] = [("sample", list(characters)),
                                       ("shuffle", [kinds[t] for t in reversed(range(first_deck))])]
    reshuffles = [i for i, op in enumerate(ops) if op.kind == "reshuffle"]
    for index, op in enumerate(ops):
        if op.kind == "reshuffle":
            end = next((r for r in reshuffles if r > index), len(ops))
            drawn = [tokens.moved[i] for i in range(index, end) if ops[i].kind == "draw"]
            gone = set(drawn)
            undrawn = [t for t in tokens.moved[index] if t not in gone]
            outcomes.append(("shuffle", [kinds[t] for t in undrawn] + [kinds[t] for t in reversed(drawn)]))
        elif op.kind == "move" and op.role == "take":
            outcomes.append(("choice", kinds[tokens.moved[index]]))
    return outcomes


def build_world(view: View, rng: random.Random, state_class: type[WorldT]) -> WorldT:
    """A full game of `state_class` (the engine's state, which calls this from its `world_from_view`)
    consistent with `view`, drawn from the view and `rng` alone (see the module docstring for the
    distribution). `world.view(view.seat) == view`, the world has a fresh seed, and two games the seat cannot
    tell apart give the same world for the same rng."""
    rules = view.rules if isinstance(view.rules, Rules) else Rules()
    players = len(view.players)
    characters = rng.choice(worlds_for_view(view))
    replay = _read_log(view.log)
    deck = deck_for(rules, players)
    tokens = _Search(replay.ops, len(deck), Counter(deck), players, rng).run()
    _open_kinds(tokens, rng)
    moves = list(replay.moves)
    for index, op in enumerate(replay.ops):
        if op.kind == "move" and op.role == "give":
            moves[op.move_index] = (op.seat, GIVES[tokens.kinds[tokens.moved[index]] or ""])
    outcomes = _outcomes(characters, tokens, replay.ops, len(deck))
    seed = rng.randrange(2**32)
    world = state_class(list(view.players), seed=seed, rules=rules)
    chance = _ScriptedChance(outcomes)
    world.rng = chance
    world.history, world.events, world._step = [], [], 0
    world._setup()
    world._update_turn()
    for seat, move in moves:
        assert move is not None
        try:
            world.apply(move, player=seat)
        except IllegalAction as error:
            raise RuntimeError(f"Get Adler: the rebuilt move {move} of seat {seat} is refused: {error} (a bug)") from error
    if chance.outcomes:
        raise RuntimeError("Get Adler: the rebuilt history left chance outcomes unused (a bug).")
    world.rng = random.Random(seed)
    return world

