"""Possible worlds: an explicit S5 epistemic model, small enough to read.

A `Worlds` model holds a set of worlds and, for each agent, what that agent observes in each world. Two
worlds an agent observes alike are indistinguishable to it, so its observations partition the worlds (an S5
Kripke structure). An agent *knows* a proposition in a world when it holds in every world the agent cannot
tell apart from it. A public announcement keeps only the worlds where the announced proposition is true.

Propositions are plain callables `world -> bool`, so "seat 2 is Adler" or "child 1 is muddy" are one-line
lambdas. The classic test is the muddy children puzzle (see the tests and the welcome notebook).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from ..extras import need

if TYPE_CHECKING:  # imported by the two methods that build a graph: the model itself is plain Python
    import networkx as nx

World = Hashable
Agent = Hashable
Proposition = Callable[[Any], bool]


class Worlds:
    """Worlds, and per agent a function giving what the agent observes in a world."""

    def __init__(self, worlds: Iterable[World], observations: Mapping[Agent, Callable[[Any], Hashable]]) -> None:
        self.worlds: tuple[World, ...] = tuple(dict.fromkeys(worlds))
        if not self.worlds:
            raise ValueError("A possible-worlds model needs at least one world.")
        self._world_set = frozenset(self.worlds)
        self.observations = dict(observations)
        self._cells: dict[Agent, dict[World, frozenset[World]]] = {}
        for agent, observe in self.observations.items():
            by_observation: dict[Hashable, set[World]] = {}
            for world in self.worlds:
                by_observation.setdefault(observe(world), set()).add(world)
            self._cells[agent] = {world: frozenset(cell) for cell in by_observation.values() for world in cell}

    @property
    def agents(self) -> tuple[Agent, ...]:
        return tuple(self.observations)

    def __len__(self) -> int:
        return len(self.worlds)

    def __contains__(self, world: object) -> bool:
        return world in self._world_set

    def __repr__(self) -> str:
        return f"Worlds({len(self.worlds)} worlds, agents {list(self.agents)})"

    def _repr_html_(self, limit: int = 60) -> str:
        """A table for notebooks: one row per world (the first `limit`), and per agent the number of the
        information cell the world lies in; worlds with the same number are the ones that agent confuses."""
        cell_numbers = {agent: {cell: number for number, cell in enumerate(self.partition(agent), start=1)}
                        for agent in self.agents}
        head = "".join(f"<th>{escape(str(agent))}</th>" for agent in self.agents)
        rows = "".join(f"<tr><td>{escape(str(world))}</td>"
                       + "".join(f"<td>{cell_numbers[agent][self._cells[agent][world]]}</td>" for agent in self.agents)
                       + "</tr>" for world in self.worlds[:limit])
        more = (f"<tr><td colspan='{len(self.agents) + 1}'>... and {len(self.worlds) - limit} more worlds</td></tr>"
                if len(self.worlds) > limit else "")
        caption = (f"{len(self.worlds)} possible worlds; for each agent, the information cell of each world "
                   "(same number: the agent cannot tell those worlds apart)")
        return (f"<table class='tabletop-worlds'><caption>{escape(caption)}</caption><thead><tr><th>world</th>{head}"
                f"</tr></thead><tbody>{rows}{more}</tbody></table>")

    def _check(self, world: World) -> None:
        if world not in self._world_set:
            raise ValueError(f"{world!r} is not one of the {len(self.worlds)} worlds of this model.")

    def possible(self, agent: Agent, world: World) -> frozenset[World]:
        """The worlds `agent` cannot tell apart from `world` (its information cell)."""
        self._check(world)
        return self._cells[agent][world]

    def partition(self, agent: Agent) -> list[frozenset[World]]:
        """The agent's information cells, in the order of the worlds."""
        return list(dict.fromkeys(self._cells[agent][world] for world in self.worlds))

    def knows(self, agent: Agent, prop: Proposition, world: World) -> bool:
        """`agent` knows `prop` in `world`: it holds in every world the agent considers possible."""
        return all(prop(other) for other in self.possible(agent, world))

    def knows_whether(self, agent: Agent, prop: Proposition, world: World) -> bool:
        """`agent` knows whether `prop`: it is true in all of the agent's possible worlds, or in none."""
        return len({bool(prop(other)) for other in self.possible(agent, world)}) == 1

    def everyone_knows(self, prop: Proposition, world: World, agents: Sequence[Agent] | None = None) -> bool:
        return all(self.knows(agent, prop, world) for agent in (agents or self.agents))

    def reachable(self, world: World, agents: Sequence[Agent] | None = None) -> set[World]:
        """Worlds reachable by any chain of the agents' indistinguishability (the common-knowledge cell)."""
        self._check(world)
        graph = self.to_networkx(agents)
        return set(need("networkx", "Common knowledge").node_connected_component(graph, world))

    def common_knowledge(self, prop: Proposition, world: World, agents: Sequence[Agent] | None = None) -> bool:
        """`prop` is common knowledge: true in every world reachable through the agents' uncertainty."""
        return all(prop(other) for other in self.reachable(world, agents))

    def announce(self, prop: Proposition) -> Worlds:
        """The model after `prop` is announced publicly and truthfully: the worlds where it holds."""
        kept = [world for world in self.worlds if prop(world)]
        if not kept:
            raise ValueError("That announcement is false in every world: nothing would remain.")
        return Worlds(kept, self.observations)

    def to_networkx(self, agents: Sequence[Agent] | None = None) -> nx.Graph:
        """Worlds as nodes; an edge between two worlds some agent cannot tell apart, labelled with those agents."""
        graph = need("networkx", "A worlds graph").Graph()
        graph.add_nodes_from(self.worlds)
        for agent in agents or self.agents:
            for cell in self.partition(agent):
                members = list(cell)
                for i, first in enumerate(members):
                    for second in members[i + 1:]:
                        if graph.has_edge(first, second):
                            graph[first][second]["agents"].append(agent)
                        else:
                            graph.add_edge(first, second, agents=[agent])
        return graph
