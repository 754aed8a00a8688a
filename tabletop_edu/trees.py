"""Game trees with information sets: the extensive form of a small game, built from its protocol, drawn, written
for Gambit and solved.

A `GameTree` has chance nodes, decision nodes and terminal nodes with payoffs; the decision nodes of one player
that he cannot tell apart form one *information set* and share its actions. Two ways to build one:

- `tree_from_states` walks the protocol itself: `legal_actions`, `apply` on clones and the seats' views. An
  information set is the set of nodes where the acting seat's view (`State.view(seat)`: its secrets, the public
  facts, its own log) is the same; simultaneous moves are played one seat after the other, and the seat moving
  later cannot tell them apart since its view does not show the earlier secret move. The protocol has no chance
  node as such: its randomness is the seeded deal. So the caller gives the initial states with their
  probabilities (every deal of a tiny configuration, or states part-way through a game) and the tree starts with
  one chance node over them. `payoff` and `stop` cut a game part-way (a round's points, the end of a round).
- `tree_from_spec` builds the tree of a model written by hand (`Chance`, `Decision`, `Terminal`), for a game
  whose protocol tree is too big and whose analysis module has a smaller model of the same decision.

Every builder stops with `TreeTooLarge` past `max_nodes`. A tree is drawn as SVG (`svg`, the notebook's
`_repr_svg_`: pure text, so it works in the browser site), written to and read from Gambit's `.efg` text format
(`to_efg`, `read_efg`), and solved:

- `solve_zero_sum`: a two-player zero-sum (or constant-sum) tree by the sequence-form linear program (Koller,
  Megiddo and von Stengel), with scipy's `linprog`, which also runs in Pyodide: the game's value and a *Nash
  equilibrium of the sequence form*, turned into behaviour strategies (one mix per information set). It needs
  perfect recall, which views give: a seat's view holds its own log.
- `nash_conv`: for any profile of any tree (general-sum, any number of players), what each player gains by his
  best response; 0 for each is a Nash equilibrium, and their sum (NashConv) says how far a profile is from one.

A Nash equilibrium prescribes a best reply only where it is reached with positive probability: at an information
set it never reaches it may play anything. The refinements ask more there. A *subgame-perfect* equilibrium is a
Nash equilibrium in every subgame (a subtree that cuts no information set); with hidden information few subtrees
are subgames, so a *perfect Bayesian* equilibrium adds beliefs at every information set, given by Bayes' rule
where it applies, and asks every move to be a best reply to them, on the path of play and off it (a claim nobody
makes, a colour nobody shows); a *sequential* equilibrium (Kreps and Wilson) asks those beliefs to be limits of
the beliefs of totally mixed profiles. What the LP gives is Nash only: read its play at an information set of
reach 0 with care.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any, Union

from .core import GameState, view_to_json
from .extras import need
from .knowledge.layout import NOTEBOOK_COLUMN

#: The largest tree a builder makes unless told otherwise: drawn trees are far smaller, solved ones may be larger.
MAX_NODES = 20_000
#: Below this, two payoffs or a probability and its rational reading are the same number.
TOLERANCE = 1e-9


class TreeTooLarge(ValueError):
    """A tree would have more nodes than its builder was allowed: a smaller configuration, or a larger limit."""


# ------------------------------------------------------------------------------------------ the tree


@dataclass(frozen=True)
class Node:
    """One node of a tree: `kind` is "chance", "decision" or "terminal"; `children[k]` follows `actions[k]`
    (with probability `probabilities[k]` at a chance node); a decision node has its `player` and `infoset`
    (an index of `GameTree.infosets`); a terminal node its `payoffs`, one per player."""

    kind: str
    parent: int | None
    depth: int
    actions: tuple[str, ...] = ()
    children: tuple[int, ...] = ()
    probabilities: tuple[Fraction, ...] = ()
    player: int | None = None
    infoset: int | None = None
    payoffs: tuple[float, ...] = ()


@dataclass(frozen=True)
class InfoSet:
    """The decision nodes of `player` he cannot tell apart; `label` names it in drawings and files ("A1" is
    the first set of the first player), `description` says what he knows there, when the builder knows, and
    `key` is what the builder told the nodes apart by (a model's key, or the text of a view)."""

    player: int
    actions: tuple[str, ...]
    nodes: tuple[int, ...]
    label: str
    description: str = ""
    key: Any = field(default=None, repr=False, compare=False)


#: A behaviour profile: for each information set (its index), the probability of each of its actions.
Profile = Mapping[int, Sequence[float]]


@dataclass
class GameTree:
    """An extensive-form game: `nodes[0]` is the root and the nodes are in prefix order (a node, then the
    subtree of each child in turn), as Gambit writes them."""

    players: tuple[str, ...]
    nodes: list[Node]
    infosets: list[InfoSet]
    title: str = "Game tree"

    @property
    def root(self) -> Node:
        return self.nodes[0]

    def leaves(self) -> list[int]:
        return [index for index, node in enumerate(self.nodes) if node.kind == "terminal"]

    def infosets_of(self, player: int) -> list[int]:
        return [index for index, infoset in enumerate(self.infosets) if infoset.player == player]

    def size(self) -> dict[str, int]:
        """How many nodes of each kind and how many information sets the tree has."""
        counts = {"nodes": len(self.nodes), "chance": 0, "decision": 0, "terminal": 0}
        for node in self.nodes:
            counts[node.kind] += 1
        counts["infosets"] = len(self.infosets)
        return counts

    def __str__(self) -> str:
        size = self.size()
        return (f"{self.title}: {size['nodes']} nodes ({size['decision']} decisions, {size['chance']} chance, "
                f"{size['terminal']} terminal), {size['infosets']} information sets, players "
                + ", ".join(self.players))

    def to_efg(self) -> str:
        return to_efg(self)

    def svg(self, width: int = 1280) -> str:
        return tree_svg(self, width)

    def _repr_svg_(self) -> str:
        """Drawn as wide as a notebook's column (JupyterLab shows an SVG at its own width, never scaled)."""
        return tree_svg(self, NOTEBOOK_COLUMN)


# ------------------------------------------------------------------------------------------ building


@dataclass(frozen=True)
class Terminal:
    """A leaf of a hand-written model: one payoff per player."""

    payoffs: tuple[float, ...]


@dataclass(frozen=True)
class Chance:
    """A chance node of a hand-written model: (action label, probability, subtree) for each outcome."""

    branches: tuple[tuple[str, float, Spec], ...]


@dataclass(frozen=True)
class Decision:
    """A decision of `player` in a hand-written model: nodes with the same `infoset` key (any hashable value)
    form one information set; `description` says what he knows there."""

    player: int
    infoset: Hashable
    branches: tuple[tuple[str, Spec], ...]
    description: str = ""


Spec = Union[Terminal, Chance, Decision]


class _Builder:
    """Lays nodes out in prefix order and gathers the information sets, counting against the limit."""

    def __init__(self, players: Sequence[str], max_nodes: int) -> None:
        self.players = tuple(players)
        self.max_nodes = max_nodes
        self.nodes: list[Node | None] = []
        self.infosets: dict[tuple[int, Hashable], list[Any]] = {}  # key -> [actions, nodes, description]
        self.numbers: dict[tuple[int, Hashable], int] = {}  # key -> its order of first appearance

    def reserve(self) -> int:
        if len(self.nodes) >= self.max_nodes:
            raise TreeTooLarge(f"The tree has more than {self.max_nodes} nodes: take a smaller configuration, a "
                               "state further on, fewer actions, or a larger max_nodes.")
        self.nodes.append(None)
        return len(self.nodes) - 1

    def terminal(self, parent: int | None, depth: int, payoffs: Sequence[float]) -> int:
        if len(payoffs) != len(self.players):
            raise ValueError(f"A leaf has {len(payoffs)} payoffs for {len(self.players)} players.")
        index = self.reserve()
        self.nodes[index] = Node("terminal", parent, depth, payoffs=tuple(float(p) for p in payoffs))
        return index

    def chance_node(self, parent: int | None, depth: int, labels: Sequence[str], probabilities: Sequence[float],
                    children: Callable[[int, int], int]) -> int:
        """A chance node whose k-th child `children(k, index)` builds (given this node's index)."""
        index = self.reserve()
        exact = _exact_probabilities(probabilities)
        _distinct(labels, "chance node")
        built = tuple(children(k, index) for k in range(len(labels)))
        self.nodes[index] = Node("chance", parent, depth, tuple(labels), built, exact)
        return index

    def decision_node(self, parent: int | None, depth: int, player: int, key: Hashable, labels: Sequence[str],
                      children: Callable[[int, int], int], description: str = "") -> int:
        if not 0 <= player < len(self.players):
            raise ValueError(f"There is no player {player} among {len(self.players)}.")
        if not labels:
            raise ValueError(f"A decision node of {self.players[player]} has no action.")
        _distinct(labels, "decision node")
        index = self.reserve()
        infoset = self.infosets.setdefault((player, key), [tuple(labels), [], description])
        number = self.numbers.setdefault((player, key), len(self.numbers))
        if infoset[0] != tuple(labels):
            raise ValueError(f"{self.players[player]} cannot tell two nodes apart but has other actions at each: "
                             f"{list(infoset[0])} and {list(labels)}.")
        infoset[1].append(index)
        built = tuple(children(k, index) for k in range(len(labels)))
        self.nodes[index] = Node("decision", parent, depth, tuple(labels), built, player=player,
                                 infoset=number)
        return index

    def tree(self, title: str) -> GameTree:
        """The tree, its information sets numbered in order of first appearance and labelled by player."""
        keys = list(self.infosets)
        order = sorted(range(len(keys)), key=lambda k: self.infosets[keys[k]][1][0])
        renumber = {old: new for new, old in enumerate(order)}
        counts = [0] * len(self.players)
        infosets = []
        for old in order:
            player = keys[old][0]
            counts[player] += 1
            actions, members, description = self.infosets[keys[old]]
            infosets.append(InfoSet(player, actions, tuple(members), f"{_letter(player)}{counts[player]}",
                                    description, keys[old][1]))
        nodes = []
        for node in self.nodes:
            assert node is not None
            if node.kind == "decision":
                assert node.infoset is not None
                node = Node(node.kind, node.parent, node.depth, node.actions, node.children, player=node.player,
                            infoset=renumber[node.infoset])
            nodes.append(node)
        return GameTree(self.players, nodes, infosets, title)


def _letter(player: int) -> str:
    return chr(ord("A") + player) if player < 26 else f"P{player + 1}."


def _distinct(labels: Sequence[str], where: str) -> None:
    if len(set(labels)) != len(labels):
        raise ValueError(f"The actions of a {where} must have distinct labels, not {list(labels)}.")


def _exact_probabilities(probabilities: Sequence[float]) -> tuple[Fraction, ...]:
    """Probabilities as fractions (0.5 -> 1/2, a third -> 1/3) summing to exactly 1, as Gambit's files want."""
    if not probabilities or any(p < 0 for p in probabilities) or abs(sum(probabilities) - 1) > 1e-6:
        raise ValueError(f"The probabilities of a chance node are at least 0 and sum to 1, not {list(probabilities)}.")
    exact = [_rational(p) for p in probabilities]
    exact[-1] = 1 - sum(exact[:-1], Fraction(0))
    if exact[-1] < 0:
        raise ValueError(f"The probabilities of a chance node sum to more than 1: {list(probabilities)}.")
    return tuple(exact)


def _rational(value: float | Fraction) -> Fraction:
    """The simple fraction a number is (a float's rounding of 1/3 is 1/3), or its exact binary value."""
    if isinstance(value, Fraction):
        return value
    simple = Fraction(value).limit_denominator(10**6)
    return simple if abs(float(simple) - value) < 1e-12 else Fraction(value)


def tree_from_spec(players: Sequence[str], spec: Spec, *, title: str = "Game tree",
                   max_nodes: int = MAX_NODES) -> GameTree:
    """The tree of a hand-written model (see `Chance`, `Decision`, `Terminal`)."""
    builder = _Builder(players, max_nodes)

    def build(node: Spec, parent: int | None, depth: int) -> int:
        if isinstance(node, Terminal):
            return builder.terminal(parent, depth, node.payoffs)
        if isinstance(node, Chance):
            branches = node.branches
            return builder.chance_node(parent, depth, [b[0] for b in branches], [b[1] for b in branches],
                                       lambda k, me: build(branches[k][2], me, depth + 1))
        moves = node.branches
        return builder.decision_node(parent, depth, node.player, node.infoset, [b[0] for b in moves],
                                     lambda k, me: build(moves[k][1], me, depth + 1), node.description)

    build(spec, None, 0)
    return builder.tree(title)


def view_key(state: GameState[Any], seat: int) -> str:
    """What `seat` knows in `state`, as one text: two nodes with the same text are one information set."""
    return json.dumps(view_to_json(state.view(seat)), sort_keys=True, ensure_ascii=False)


def tree_from_states(deals: GameState[Any] | Sequence[tuple[str, GameState[Any], float]], *,
                     payoff: Callable[[GameState[Any]], Sequence[float]] | None = None,
                     stop: Callable[[GameState[Any]], bool] | None = None,
                     actions: Callable[[GameState[Any], int], Sequence[Any]] | None = None,
                     skip_forced: bool = True, title: str | None = None,
                     max_nodes: int = MAX_NODES) -> GameTree:
    """The extensive form of a game from its protocol, walked from `deals`.

    `deals` is one state (no chance node) or (label, state, probability) triples: the tree's root is then a
    chance node over them, since the protocol's randomness is its seeded deal. At every node the seat to act
    (the first of several acting at once) plays each of its legal actions (or those `actions(state, seat)`
    keeps, a smaller game) on a clone; its information set is its view (`view_key`). A node is a leaf when the
    game is over or `stop(state)`; its payoffs are `payoff(state)` (default `returns()`). A move that is the
    only one its seat has is played without a node (`skip_forced`).
    """
    if isinstance(deals, GameState):
        starts: list[tuple[str, GameState[Any], float]] = [("", deals, 1.0)]
    else:
        starts = list(deals)
    if not starts:
        raise ValueError("A tree needs at least one initial state.")
    players = starts[0][1].players
    if any(len(state.players) != len(players) for _, state, _ in starts):
        raise ValueError("Every initial state must seat the same players.")
    builder = _Builder(players, max_nodes)
    score = payoff or (lambda state: state.returns())
    ended = stop or (lambda state: False)

    def build(state: GameState[Any], parent: int | None, depth: int) -> int:
        while True:
            if state.is_over or ended(state):
                return builder.terminal(parent, depth, score(state))
            seat = state.acting_seats[0]
            menu = list(actions(state, seat)) if actions else state.legal_actions(seat)
            if not menu:
                raise ValueError(f"Seat {seat} is to act but has no action in {state}.")
            if skip_forced and len(menu) == 1:
                state = state.clone()
                state.apply(menu[0], player=seat)
                continue
            break
        key = view_key(state, seat)

        def child(k: int, me: int) -> int:
            after = state.clone()
            after.apply(menu[k], player=seat)
            return build(after, me, depth + 1)

        return builder.decision_node(parent, depth, seat, key, [str(action) for action in menu], child)

    if len(starts) == 1 and not starts[0][0]:
        build(starts[0][1], None, 0)
    else:
        builder.chance_node(None, 0, [label for label, _, _ in starts], [p for _, _, p in starts],
                            lambda k, me: build(starts[k][1], me, 1))
    return builder.tree(title or f"{starts[0][1].title}, from the protocol")


# ------------------------------------------------------------------------------------------ Gambit's .efg


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "/").replace('"', '\\"').replace("\n", " ") + '"'


def _number(value: float | Fraction) -> str:
    """A number as Gambit reads it: a whole number, a fraction (1/3), or a decimal."""
    exact = _rational(value)
    if exact.denominator == 1:
        return str(exact.numerator)
    if exact.denominator <= 10**6:
        return f"{exact.numerator}/{exact.denominator}"
    return repr(float(value))


def to_efg(tree: GameTree) -> str:
    """The tree in Gambit's extensive-form text format (`.efg`, version 2): a prologue with the title and the
    players, then one line per node in prefix order; information set `I` of a player is numbered `I + 1` in that
    player's count and labelled with its `label`, each leaf has its own outcome. Every node of a set repeats its
    label and actions: Gambit reads both forms, OpenSpiel's `efg_game` only this one."""
    lines = [f"EFG 2 R {_quoted(tree.title)} {{ {' '.join(_quoted(p) for p in tree.players)} }}", _quoted(""), ""]
    numbers: dict[int, int] = {}
    counts = [0] * len(tree.players)
    chance_count = outcome_count = 0
    for node in tree.nodes:
        if node.kind == "chance":
            chance_count += 1
            pairs = " ".join(f"{_quoted(a)} {_number(p)}" for a, p in zip(node.actions, node.probabilities))
            lines.append(f'c "" {chance_count} "" {{ {pairs} }} 0')
        elif node.kind == "decision":
            assert node.infoset is not None and node.player is not None
            infoset = tree.infosets[node.infoset]
            if node.infoset not in numbers:
                counts[node.player] += 1
                numbers[node.infoset] = counts[node.player]
            described = f"{_quoted(infoset.label)} {{ {' '.join(_quoted(a) for a in node.actions)} }}"
            lines.append(f'p "" {node.player + 1} {numbers[node.infoset]} {described} 0')
        else:
            outcome_count += 1
            payoffs = ", ".join(_number(p) for p in node.payoffs)
            lines.append(f't "" {outcome_count} "" {{ {payoffs} }}')
    return "\n".join(lines) + "\n"


def _tokens(text: str) -> Iterator[str | tuple[str]]:
    """Gambit's tokens: a quoted text comes as a 1-tuple (its content, `\\"` read as a quote), others as text."""
    position, length = 0, len(text)
    while position < length:
        char = text[position]
        if char.isspace() or char == ",":
            position += 1
        elif char in "{}":
            yield char
            position += 1
        elif char == '"':
            content, position = [], position + 1
            while position < length and text[position] != '"':
                if text[position] == "\\" and position + 1 < length and text[position + 1] == '"':
                    position += 1
                content.append(text[position])
                position += 1
            if position >= length:
                raise ValueError("An .efg text ends inside a quoted label.")
            position += 1
            yield ("".join(content),)
        else:
            start = position
            while position < length and not text[position].isspace() and text[position] not in '{}",':
                position += 1
            yield text[start:position]


def read_efg(text: str) -> GameTree:
    """A tree from Gambit's `.efg` text (the format `to_efg` writes, and Gambit's own files: outcomes at inner
    nodes add to the payoffs below them); a `ValueError` naming what is wrong otherwise."""
    tokens = list(_tokens(text))
    position = 0

    def take() -> str | tuple[str]:
        nonlocal position
        if position >= len(tokens):
            raise ValueError("The .efg text ends in the middle of a node.")
        position += 1
        return tokens[position - 1]

    def peek() -> str | tuple[str] | None:
        return tokens[position] if position < len(tokens) else None

    def label() -> str:
        token = take()
        if not isinstance(token, tuple):
            raise ValueError(f"A quoted label was expected, not {token!r}.")
        return token[0]

    def symbol(expected: str | None = None) -> str:
        token = take()
        if isinstance(token, tuple) or (expected is not None and token != expected):
            raise ValueError(f"{expected or 'A number'} was expected in the .efg text, not {token!r}.")
        return token

    def number() -> Fraction:
        token = symbol()
        try:
            return Fraction(token)
        except ValueError:
            raise ValueError(f"A number was expected in the .efg text, not {token!r}.") from None

    if symbol() != "EFG" or symbol() != "2" or symbol() != "R":
        raise ValueError("An .efg text starts with 'EFG 2 R'.")
    title = label()
    symbol("{")
    players: list[str] = []
    while peek() != "}":
        players.append(label())
    symbol("}")
    if isinstance(peek(), tuple):
        label()  # the comment
    builder = _Builder(players, 10**7)
    outcomes: dict[int, tuple[Fraction, ...]] = {}
    chance_sets: dict[int, tuple[list[str], list[Fraction]]] = {}
    player_sets: dict[tuple[int, int], list[str]] = {}

    def outcome(paid: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
        number_ = int(number())
        if isinstance(peek(), tuple):
            label()
            symbol("{")
            values = []
            while peek() != "}":
                values.append(number())
            symbol("}")
            outcomes[number_] = tuple(values)
        if number_ == 0:
            return paid
        if number_ not in outcomes:
            raise ValueError(f"Outcome {number_} is used before its payoffs are given.")
        return tuple(a + b for a, b in zip(paid, outcomes[number_]))

    def node(parent: int | None, depth: int, paid: tuple[Fraction, ...]) -> int:
        kind = symbol()
        label()
        if kind == "t":
            return builder.terminal(parent, depth, [float(p) for p in outcome(paid)])
        if kind not in ("c", "p"):
            raise ValueError(f"A node is 'c', 'p' or 't', not {kind!r}.")
        player = 0 if kind == "c" else int(number())
        infoset = int(number())
        described = isinstance(peek(), tuple)
        if described:
            label()
            symbol("{")
            names, probabilities = [], []
            while peek() != "}":
                names.append(label())
                if kind == "c":
                    probabilities.append(number())
            symbol("}")
            if kind == "c":
                chance_sets[infoset] = (names, probabilities)
            else:
                player_sets[(player, infoset)] = names
        added = outcome(paid)
        if kind == "c":
            if infoset not in chance_sets:
                raise ValueError(f"Chance information set {infoset} has no actions.")
            names, probabilities = chance_sets[infoset]
            return builder.chance_node(parent, depth, names, [float(p) for p in probabilities],
                                       lambda k, me: node(me, depth + 1, added))
        if (player, infoset) not in player_sets:
            raise ValueError(f"Information set {infoset} of player {player} has no actions.")
        names = player_sets[(player, infoset)]
        return builder.decision_node(parent, depth, player - 1, infoset, names,
                                     lambda k, me: node(me, depth + 1, added))

    node(None, 0, tuple(Fraction(0) for _ in players))
    if position != len(tokens):
        raise ValueError("The .efg text goes on after its tree is complete.")
    return builder.tree(title)


# ------------------------------------------------------------------------------------------ strategies


def _reach(tree: GameTree, profile: Profile, excluded: int | None = None) -> list[float]:
    """Each node's probability of being reached, every player but `excluded` following `profile`."""
    reach = [0.0] * len(tree.nodes)
    reach[0] = 1.0
    for index, node in enumerate(tree.nodes):
        for k, child in enumerate(node.children):
            if node.kind == "chance":
                step = float(node.probabilities[k])
            elif node.player == excluded:
                step = 1.0
            else:
                assert node.infoset is not None
                step = float(profile[node.infoset][k])
            reach[child] = reach[index] * step
    return reach


def expected_payoffs(tree: GameTree, profile: Profile) -> tuple[float, ...]:
    """What each player gets on average when all follow `profile`."""
    reach = _reach(tree, profile)
    return tuple(sum(reach[leaf] * tree.nodes[leaf].payoffs[player] for leaf in tree.leaves())
                 for player in range(len(tree.players)))


def best_response(tree: GameTree, profile: Profile, player: int) -> tuple[float, dict[int, int]]:
    """The most `player` can get when the others follow `profile`, and the action (its index) he then plays
    at each of his information sets. Exact with perfect recall: an information set's choice weighs each of its
    nodes by the others' and chance's probability of reaching it."""
    reach = _reach(tree, profile, excluded=player)
    chosen: dict[int, int] = {}
    values: dict[int, float] = {}

    def value(index: int) -> float:
        if index in values:
            return values[index]
        node = tree.nodes[index]
        if node.kind == "terminal":
            result = node.payoffs[player]
        elif node.kind == "chance":
            result = sum(float(p) * value(child) for p, child in zip(node.probabilities, node.children))
        elif node.player == player:
            assert node.infoset is not None
            result = value(node.children[choose(node.infoset)])
        else:
            assert node.infoset is not None
            result = sum(q * value(child) for q, child in zip(profile[node.infoset], node.children) if q > 0)
        values[index] = result
        return result

    def choose(infoset: int) -> int:
        if infoset not in chosen:
            members = tree.infosets[infoset].nodes
            totals = [sum(reach[member] * value(tree.nodes[member].children[k]) for member in members)
                      for k in range(len(tree.infosets[infoset].actions))]
            chosen[infoset] = max(range(len(totals)), key=lambda k: (totals[k] - TOLERANCE * k))
        return chosen[infoset]

    best = value(0)
    for infoset in tree.infosets_of(player):
        choose(infoset)
    return best, chosen


def gains(tree: GameTree, profile: Profile) -> tuple[float, ...]:
    """What each player gains by deviating alone to his best response (all 0 at a Nash equilibrium)."""
    now = expected_payoffs(tree, profile)
    return tuple(max(0.0, best_response(tree, profile, player)[0] - now[player]) for player in range(len(tree.players)))


def nash_conv(tree: GameTree, profile: Profile) -> float:
    """The sum of the players' best-response gains: 0 exactly at a Nash equilibrium."""
    return sum(gains(tree, profile))


def infoset_reach(tree: GameTree, profile: Profile) -> list[float]:
    """Each information set's probability of being reached when everyone follows `profile`. Where it is
    positive, Bayes' rule gives the beliefs and a Nash equilibrium plays a best reply to them; an information
    set of reach 0 is off the path of play, where only the refinements ask anything."""
    reach = _reach(tree, profile)
    found = [0.0] * len(tree.infosets)
    for index, node in enumerate(tree.nodes):
        if node.kind == "decision":
            assert node.infoset is not None
            found[node.infoset] += reach[index]
    return found


def subgame_roots(tree: GameTree) -> list[int]:
    """The non-terminal nodes whose subtree is a subgame: it starts at a node alone in its information set and
    cuts no information set (each lies inside it or outside). The root is always one; a subgame-perfect
    equilibrium is a Nash equilibrium of each of them."""
    end = list(range(1, len(tree.nodes) + 1))  # prefix order: node i's subtree is the range [i, end[i])
    for index in range(len(tree.nodes) - 1, -1, -1):
        if tree.nodes[index].children:
            end[index] = end[tree.nodes[index].children[-1]]
    span = [(min(s.nodes), max(s.nodes)) for s in tree.infosets]
    roots = []
    for index, node in enumerate(tree.nodes):
        if node.kind == "terminal" or (node.infoset is not None and len(tree.infosets[node.infoset].nodes) > 1):
            continue
        inside = {tree.nodes[k].infoset for k in range(index, end[index])} - {None}
        if all(index <= span[s][0] and span[s][1] < end[index] for s in inside):  # type: ignore[index]
            roots.append(index)
    return roots


def uniform_profile(tree: GameTree) -> dict[int, tuple[float, ...]]:
    return {k: tuple(1 / len(s.actions) for _ in s.actions) for k, s in enumerate(tree.infosets)}


def profile_of(tree: GameTree, play: Callable[[InfoSet], Mapping[str, float]]) -> dict[int, tuple[float, ...]]:
    """A behaviour profile from a rule giving, for an information set, each action's probability (by its label;
    actions left out get 0): a model's strategies read onto its tree."""
    profile = {}
    for index, infoset in enumerate(tree.infosets):
        mix = play(infoset)
        unknown = set(mix) - set(infoset.actions)
        if unknown:
            raise ValueError(f"{infoset.label} has no action {sorted(unknown)}: it has {list(infoset.actions)}.")
        profile[index] = tuple(float(mix.get(action, 0.0)) for action in infoset.actions)
        if abs(sum(profile[index]) - 1) > 1e-6:
            raise ValueError(f"The probabilities at {infoset.label} sum to {sum(profile[index])}, not 1.")
    return profile


# ------------------------------------------------------------------------------------------ the sequence form


@dataclass(frozen=True)
class Solution:
    """A two-player zero-sum tree solved: `value` is what the first player gets in equilibrium, `profile` the
    equilibrium's behaviour strategies, `gains` each player's best-response gain against it (0 to rounding)."""

    value: float
    profile: dict[int, tuple[float, ...]]
    gains: tuple[float, ...] = field(default=())

    @property
    def nash_conv(self) -> float:
        return sum(self.gains)

    def __str__(self) -> str:
        return (f"value {self.value:.6g} for the first player; best-response gains "
                + ", ".join(f"{g:.2g}" for g in self.gains) + f" (NashConv {self.nash_conv:.2g})")


def _sequences(tree: GameTree, player: int) -> tuple[dict[tuple[int, int], int], dict[int, int], list[int]]:
    """The player's sequences ((infoset, action) -> column, the empty one being 0), each of his information
    sets' parent sequence, and each node's last sequence of his; a `ValueError` without perfect recall."""
    columns: dict[tuple[int, int], int] = {}
    for infoset in tree.infosets_of(player):
        for action in range(len(tree.infosets[infoset].actions)):
            columns[(infoset, action)] = len(columns) + 1
    parent_of: dict[int, int] = {}
    last = [0] * len(tree.nodes)
    for index, node in enumerate(tree.nodes):
        if node.kind == "decision" and node.player == player:
            assert node.infoset is not None
            if parent_of.setdefault(node.infoset, last[index]) != last[index]:
                raise ValueError(f"Information set {tree.infosets[node.infoset].label} is reached after different "
                                 "moves of its own player: the tree has no perfect recall, which the sequence form "
                                 "needs.")
        for k, child in enumerate(node.children):
            mine = node.kind == "decision" and node.player == player
            last[child] = columns[(node.infoset, k)] if mine else last[index]  # type: ignore[index]
    return columns, parent_of, last


def solve_zero_sum(tree: GameTree) -> Solution:
    """The value and a Nash equilibrium of a two-player zero-sum (or constant-sum) tree, by the sequence-form
    linear programs of both players (scipy's HiGHS), with each player's best-response gain checked."""
    scipy_optimize = need("scipy.optimize", "Solving a game tree")
    sparse = need("scipy.sparse", "Solving a game tree")
    np = need("numpy", "Solving a game tree")
    if len(tree.players) != 2:
        raise ValueError(f"The sequence-form LP solves two-player trees, not {len(tree.players)}-player ones.")
    leaves = tree.leaves()
    sums = [sum(tree.nodes[leaf].payoffs) for leaf in leaves]
    if max(sums) - min(sums) > TOLERANCE:
        raise ValueError("The tree is not zero-sum (nor constant-sum): the LP solves only those; check a profile "
                         "with nash_conv, or solve it with Gambit's lcp_solve.")
    constant = sums[0]
    plans = [_sequences(tree, player) for player in (0, 1)]
    sizes = [len(columns) + 1 for columns, _, _ in plans]
    chance = _chance_reach(tree)
    payoff = sparse.dok_matrix((sizes[0], sizes[1]))
    for leaf in leaves:
        payoff[plans[0][2][leaf], plans[1][2][leaf]] += chance[leaf] * tree.nodes[leaf].payoffs[0]
    payoff = payoff.tocsr()

    def constraints(player: int) -> Any:
        columns, parent_of, _ = plans[player]
        infosets = sorted(parent_of)
        matrix = sparse.dok_matrix((len(infosets) + 1, sizes[player]))
        matrix[0, 0] = 1.0
        for row, infoset in enumerate(infosets, start=1):
            matrix[row, parent_of[infoset]] = -1.0
            for action in range(len(tree.infosets[infoset].actions)):
                matrix[row, columns[(infoset, action)]] = 1.0
        vector = np.zeros(len(infosets) + 1)
        vector[0] = 1.0
        return matrix.tocsr(), vector

    (first, e), (second, f) = constraints(0), constraints(1)

    def solve(own: Any, own_rhs: Any, other: Any, other_rhs: Any, matrix: Any) -> tuple[Any, float]:
        """max over own plan x of min over the other's: max f.v s.t. other^T v <= matrix^T x, own x = own_rhs."""
        n, m = own.shape[1], other.shape[0]
        cost = np.r_[np.zeros(n), -other_rhs]
        upper = sparse.hstack([-matrix.T, other.T]).tocsr()
        equal = sparse.hstack([own, sparse.csr_matrix((own.shape[0], m))]).tocsr()
        result = scipy_optimize.linprog(cost, A_ub=upper, b_ub=np.zeros(upper.shape[0]), A_eq=equal, b_eq=own_rhs,
                                        bounds=[(0, None)] * n + [(None, None)] * m, method="highs")
        if result.status != 0:
            raise ValueError(f"The sequence-form LP failed: {result.message}")
        return result.x[:n], -float(result.fun)

    x, value = solve(first, e, second, f, payoff)
    y, minus_value = solve(second, f, first, e, -payoff.T)
    profile: dict[int, tuple[float, ...]] = {}
    for player, plan in ((0, x), (1, y)):
        columns, parent_of, _ = plans[player]
        for infoset, parent in parent_of.items():
            count = len(tree.infosets[infoset].actions)
            weights = [max(0.0, float(plan[columns[(infoset, k)]])) for k in range(count)]
            total = sum(weights)
            profile[infoset] = tuple(w / total for w in weights) if plan[parent] > TOLERANCE and total > 0 \
                else tuple(1 / count for _ in range(count))
    if abs(value + minus_value) > 1e-6:
        raise ValueError(f"The two players' LPs disagree on the value: {value} and {-minus_value}.")
    del constant  # the second player's payoff is the constant minus the first's: the same strategic game
    return Solution(value, profile, gains(tree, profile))


def _chance_reach(tree: GameTree) -> list[float]:
    """Each node's probability under chance alone (every player's moves counted as sure)."""
    reach = [0.0] * len(tree.nodes)
    reach[0] = 1.0
    for index, node in enumerate(tree.nodes):
        for k, child in enumerate(node.children):
            reach[child] = reach[index] * (float(node.probabilities[k]) if node.kind == "chance" else 1.0)
    return reach


# ------------------------------------------------------------------------------------------ Gambit's solvers


def gambit_equilibria(tree: GameTree, method: str = "lcp") -> list[tuple[tuple[float, ...], float]]:
    """What Gambit finds on the tree's `.efg` text with `lcp_solve` (two players, any sums) or `lp_solve`
    (two-player constant-sum): for each equilibrium, every player's payoff and Gambit's own largest regret
    (pygambit, the optional extra `gambit`; read through its 16 and 17 interfaces alike)."""
    import io

    gambit = need("pygambit", "Checking a tree with Gambit's solvers")
    game = gambit.read_efg(io.StringIO(to_efg(tree)))
    solver = {"lcp": gambit.nash.lcp_solve, "lp": gambit.nash.lp_solve}[method]
    result = solver(game, rational=False)
    found = getattr(result, "equilibria", None) or [result.equilibrium]
    checked = []
    for equilibrium in found:
        vector = getattr(equilibrium, "payoffs", None)
        if vector is not None and not callable(vector):
            payoffs = tuple(float(value) for _, value in vector)
        else:
            payoffs = tuple(float(equilibrium.payoff(player)) for player in game.players)
        checked.append((payoffs, float(equilibrium.max_regret())))
    return checked


# ------------------------------------------------------------------------------------------ drawing

#: Player colours (then chance's white), readable on white and under white text.
PLAYER_COLOURS = ("#1f5fa8", "#c0561b", "#2a7f3a", "#7a3f9a", "#8a6d00", "#a3245a")
#: Information-set line colours: distinct from one another, cycled.
SET_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#ff7f0e",
               "#7f7f7f")
FONT = 15
ROW = 30
RADIUS = 14


def _text_width(text: str, size: int = FONT) -> float:
    return 0.6 * size * len(text)


def _payoff_text(payoffs: Sequence[float]) -> str:
    return "(" + ", ".join(_short_number(p) for p in payoffs) + ")"


def _short_number(value: float | Fraction) -> str:
    exact = _rational(value)
    if exact.denominator == 1:
        return str(exact.numerator).replace("-", "−")
    if exact.denominator <= 100:
        return f"{exact.numerator}/{exact.denominator}".replace("-", "−")
    return f"{float(value):.3g}".replace("-", "−")


def tree_svg(tree: GameTree, width: int = 1280) -> str:
    """The tree drawn left to right at its natural size (`width` px wide, every text 14 px or more): a row per
    leaf with its payoffs, decision nodes in their player's colour holding their information set's label, chance
    nodes white, each edge labelled with its action (and probability), and a dashed line of one colour joining
    the nodes of each information set."""
    leaves = tree.leaves()
    depth = max(node.depth for node in tree.nodes)
    payoff_width = max(_text_width(_payoff_text(tree.nodes[leaf].payoffs)) for leaf in leaves) + 16
    top, left = 78, 24 + RADIUS
    column = max(120.0, (width - left - payoff_width - 24) / max(depth, 1))
    y: dict[int, float] = {}
    for row, leaf in enumerate(leaves):
        y[leaf] = top + ROW * row
    for index in reversed(range(len(tree.nodes))):
        node = tree.nodes[index]
        if node.children:
            y[index] = (y[node.children[0]] + y[node.children[-1]]) / 2
    x = {index: left + column * node.depth for index, node in enumerate(tree.nodes)}
    height = int(top + ROW * len(leaves) + 10)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="tabletop-tree" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{FONT}">',
             f"<title>{escape(str(tree))}</title>",
             '<rect width="100%" height="100%" fill="white"/>',
             f'<text x="12" y="24" font-size="18" font-weight="bold">{escape(tree.title)}</text>']
    legend_x = 12.0
    for player, name in enumerate(tree.players):
        colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
        parts.append(f'<circle cx="{legend_x + 8}" cy="46" r="8" fill="{colour}"/>'
                     f'<text x="{legend_x + 22}" y="51">{escape(_letter(player))}: {escape(name)}</text>')
        legend_x += 40 + _text_width(f"{_letter(player)}: {name}")
    parts.append(f'<circle cx="{legend_x + 8}" cy="46" r="8" fill="white" stroke="black"/>'
                 f'<text x="{legend_x + 22}" y="51">chance</text>'
                 f'<line x1="{legend_x + 100}" y1="46" x2="{legend_x + 140}" y2="46" stroke="black" '
                 f'stroke-dasharray="6 4" stroke-width="2"/>'
                 f'<text x="{legend_x + 148}" y="51">one information set (same view)</text>')
    for index, node in enumerate(tree.nodes):
        for k, child in enumerate(node.children):
            parts.append(f'<line x1="{x[index]:.1f}" y1="{y[index]:.1f}" x2="{x[child]:.1f}" y2="{y[child]:.1f}" '
                         'stroke="#555" stroke-width="1.5"/>')
    for number, infoset in enumerate(tree.infosets):
        colour = SET_COLOURS[number % len(SET_COLOURS)]
        members = sorted(infoset.nodes, key=lambda member: y[member])
        title = f"<title>{escape(infoset.label)}: {escape(infoset.description)}</title>" if infoset.description \
            else f"<title>{escape(infoset.label)}</title>"
        path = []
        for a, b in zip(members, members[1:]):
            bulge = min(x[a], x[b]) - RADIUS - 10 - 0.15 * min(abs(y[b] - y[a]), column * 2)
            path.append(f"M {x[a] - RADIUS:.1f} {y[a]:.1f} C {bulge:.1f} {y[a]:.1f} {bulge:.1f} {y[b]:.1f} "
                        f"{x[b] - RADIUS:.1f} {y[b]:.1f}")
        line = (f'<path d="{" ".join(path)}" fill="none" stroke="{colour}" stroke-width="2.5" '
                'stroke-dasharray="7 4"/>') if path else ""
        parts.append(f'<g class="infoset" data-infoset="{escape(infoset.label)}">{title}{line}</g>')
    for index, node in enumerate(tree.nodes):
        for k, child in enumerate(node.children):
            label = node.actions[k]
            if node.kind == "chance":
                label += f" ({_short_number(node.probabilities[k])})"
            tx, ty = x[child] - RADIUS - 6, y[child] - 6
            parts.append(f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="end" stroke="white" stroke-width="4" '
                         f'paint-order="stroke">{escape(label)}</text>')
    for index, node in enumerate(tree.nodes):
        cx, cy = x[index], y[index]
        if node.kind == "terminal":
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="black"/>'
                         f'<text x="{cx + 10:.1f}" y="{cy + 5:.1f}">{escape(_payoff_text(node.payoffs))}</text>')
        elif node.kind == "chance":
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{RADIUS}" fill="white" stroke="black" '
                         f'stroke-width="1.5"/><text x="{cx:.1f}" y="{cy + 5:.1f}" text-anchor="middle">C</text>')
        else:
            assert node.player is not None and node.infoset is not None
            infoset = tree.infosets[node.infoset]
            colour = PLAYER_COLOURS[node.player % len(PLAYER_COLOURS)]
            ring = SET_COLOURS[node.infoset % len(SET_COLOURS)] if len(infoset.nodes) > 1 else colour
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{RADIUS}" fill="{colour}" stroke="{ring}" '
                         f'stroke-width="3"><title>{escape(infoset.label)}</title></circle>'
                         f'<text x="{cx:.1f}" y="{cy + 5:.1f}" text-anchor="middle" fill="white" font-size="14" '
                         f'font-weight="bold">{escape(infoset.label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["Chance", "Decision", "GameTree", "InfoSet", "MAX_NODES", "Node", "Profile", "Solution", "Terminal",
           "TreeTooLarge", "best_response", "expected_payoffs", "gains", "gambit_equilibria", "infoset_reach",
           "nash_conv", "profile_of", "read_efg", "solve_zero_sum", "subgame_roots", "to_efg", "tree_from_spec", "tree_from_states", "tree_svg",
           "uniform_profile", "view_key"]
