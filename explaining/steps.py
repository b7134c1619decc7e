"""A step-wise explanation of a unique solution: one new fact per step, each forced by the fewest units and
known facts that can be found, cheapest step first (after Bogaerts, Gamba and Guns, AIJ 2021).

Three phases per step.  First, one unit alone: for each unit, the facts it
forces together with the known facts about its variables (a backbone of
"this unit and those facts", by a few SAT calls under assumptions), each
with the known facts it needs cut to a smallest set.  What one unit
forces stays forced as more facts become known (at no higher cost), so a
unit is looked at again only when a fact about one of its variables is
learnt.  Then, when no unit alone forces a fact at cost 3 or less, pairs
of units that share a variable, the same way; the cheaper step is taken
(pairs with a graph constraint only when no unit alone forces a fact).
Only when no pair forces a new fact does the third phase look for a
small ring of several units around an unknown fact that forces it
(``_several_units``).

A unit with a graph constraint (one loop, a connected set: a rule over
the whole board, whose questions are searches with cuts) is asked only
for the facts it did not force before, and the set of known facts for a
new one is looked for near its fact first (the facts around one point of
a Slitherlink, then further out), so its steps are as local as the
puzzle allows; a step found earlier is looked for again when a fact next
to it is learnt, and before it is told.

The cost of a step is its number of units plus its number of facts used.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..constraints import Clause, semantics
from .reasoner import Local, Reasoner, Switched
from .units import Unit


@dataclass(frozen=True)
class Step:
    """One new fact, and why: these units, with these facts already known, leave it no other value."""

    fact: int
    units: tuple[Unit, ...]
    facts: tuple[int, ...]

    @property
    def cost(self) -> int:
        return len(self.units) + len(self.facts)


@dataclass(frozen=True)
class Ring:
    """A small solver over a region of units (each switched on by assuming its selector), the units by their
    selectors in its numbering, and the variables they read (of which the known facts are assumed)."""

    local: Local
    units: Mapping[int, Unit]
    scope: frozenset[int]


class Stepper:
    """Finds the next step from a set of known facts towards a target assignment (the unique solution)."""

    #: pairs of units looked at, at most (two units sharing a variable)
    MAX_PAIRS = 20_000
    #: unknown facts tried when two units force none (each costs a few SAT calls), and how many of those are
    #: cut to a minimal set (each costs a deletion: a SAT call per unit and fact in its ring's core)
    TRIED = 16
    SHRUNK = 8
    #: pairs of units are looked at when the cheapest step of one unit costs more than this (a pair's step
    #: costs at least 2, but with 2 a Sudoku looked at its pairs before most of its singles, 6x the time and
    #: a dearer total; Einstein's riddle needs them from 4 on: a clue and four facts, or two clues and one)
    PAIRS_ABOVE = 3
    #: hitting sets tried for a pair's step (``Oracle.smallest``): a Sudoku's pairs force many facts each
    PAIR_ROUNDS = 10
    #: the conflicts the questions about a loop may take together while a graph step's facts are cut down
    #: (``_graph_step``): past them, the facts not yet asked about are taken to be needed (the step is then
    #: perhaps not minimal).  On a 20x20 Slitherlink, one such deletion with some 650 facts known ran for
    #: minutes; with 50,000 conflicts it reached 760 of its 840 steps in five minutes, with 5000 it was complete
    #: in two (its steps a little dearer: a 10x10 costs 738, was 680)
    HARD = 5000
    #: the same for a connected set, in rounds of cuts
    HARD_ROUNDS = 50_000
    #: the rounds of cuts a several-unit search's deletion in a ring with a connected set may take together
    #: (``_several_units``), past which its members not yet asked about are kept: on a 24x14 Nurikabe one
    #: step's eight deletions took 85,000 rounds (67 s), most in questions with no solution (the member could
    #: go), where the others' took a few hundred
    RING_ROUNDS = 2000
    #: rings of units kept from step to step (their solvers, with what they learnt), at most
    RINGS_KEPT = 400

    def __init__(self, reasoner: Reasoner, target: Iterable[int], known: Iterable[int] = ()) -> None:
        self.reasoner = reasoner
        self.target = frozenset(target)
        self.known: list[int] = list(dict.fromkeys(known))
        self.unknown = set(self.target) - set(self.known)
        #: groups of units looked at together: one unit each, then (when those force nothing) pairs
        self.levels: list[list[tuple[int, ...]]] = [[(u,) for u in range(len(reasoner.units))]]
        #: per level, own variable -> the groups that read it, and the groups to look at again
        self.readers: list[dict[int, list[int]]] = [self._readers(self.levels[0])]
        self.dirty: list[set[int]] = [set(range(len(self.levels[0])))]
        #: the best step found for each unknown fact
        self.best: dict[int, Step] = {}
        self.queue: list[tuple[tuple[int, int, int], int]] = []
        #: groups of units with a graph constraint (one loop, a connected set): per group (one unit, or a pair),
        #: its graph's variables' neighbours, the unknown facts it forces with the known facts (that stays so as
        #: more become known), and those forced facts whose step is to be looked for again (a fact next to them
        #: was learnt: a nearer, cheaper set of facts may force them now)
        self.near: dict[tuple[int, ...], dict[int, set[int]]] = {}
        for u, unit in enumerate(reasoner.units):
            if reasoner.graph_of(unit):
                self.near[(u,)] = reasoner.near(unit)
        self.forced: dict[tuple[int, ...], set[int]] = {g: set() for g in self.near}
        self.stale: dict[tuple[int, ...], set[int]] = {g: set() for g in self.near}
        #: per unit with a graph constraint, solutions found of it (alone or with a partner) and the known facts,
        #: each as the variables where it leaves the target: each shows that the unit does not force the
        #: target's facts about those variables, and it still does while none of them is known; with a partner
        #: too where the partner holds in it (``_shown``)
        self.apart: dict[int, list[frozenset[int]]] = {g[0]: [] for g in self.near}
        #: for a step of a graph group: how many facts were known when it was found (refreshed before it is told)
        self.found_at: dict[int, int] = {}
        #: the graph groups looked at once (what they force with no known fact is known)
        self.looked: set[tuple[int, ...]] = set()
        #: pairs with a graph constraint that force nothing their graph unit does not (``_idle``), and those judged
        self.idle: set[tuple[int, ...]] = set()
        self.judged: set[tuple[int, ...]] = set()
        #: per graph unit, what it forces with every partner not idle (``_forced_with_partners``): for how many
        #: known facts, those facts, and the solutions found, each as the variables where it leaves the target
        self.with_partners: dict[int, tuple[int, set[int], list[frozenset[int]]]] = {}
        #: every variable of the model (own or not) -> the units that read it
        self.reading: dict[int, list[int]] = {}
        for u, unit in enumerate(reasoner.units):
            for var in unit.reads:
                self.reading.setdefault(var, []).append(u)
        #: the rings of units asked by ``_several_units``, by their units: kept from step to step (a Nurikabe
        #: asks the same rings step after step; building each anew was most of its time)
        self.rings: dict[frozenset[int], Ring] = {}
        #: per unknown fact tried by ``_several_units``, the size of the first core its forcing ring gave: facts
        #: not tried yet are tried first, then those whose last core was smallest
        self.estimate: dict[int, int] = {}

    def close(self) -> None:
        for ring in self.rings.values():
            ring.local.close()
        self.rings.clear()

    def __enter__(self) -> Stepper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _readers(self, groups: Sequence[tuple[int, ...]]) -> dict[int, list[int]]:
        readers: dict[int, list[int]] = {}
        for g, group in enumerate(groups):
            for var in set().union(*(self.reasoner.units[u].scope for u in group)):
                readers.setdefault(var, []).append(g)
        return readers

    def _pairs(self) -> list[tuple[int, ...]]:
        """Pairs of units that share a variable, own or not (what one unit forces the other can use), and
        that read some own variable between them (else they force no fact)."""
        units = self.reasoner.units
        pairs = []
        for a in range(len(units)):
            for b in range(a + 1, len(units)):
                if units[a].reads & units[b].reads and (units[a].scope or units[b].scope):
                    pairs.append((a, b))
                    if len(pairs) >= self.MAX_PAIRS:
                        return pairs
        return pairs

    # ------------------------------------------------------------------ one unit, two units

    def _look_at(self, group: tuple[int, ...]) -> None:
        """Every unknown target fact these units force with the known facts about their variables (asked of
        a small solver over these units' clauses alone: the answers are the same as the whole model's with
        only these units on)."""
        if group in self.near:
            self._look_at_graph(group)
            return
        reasoner = self.reasoner
        units = tuple(reasoner.units[u] for u in group)
        local = reasoner.local([reasoner.selector[unit.label] for unit in units], keep=len(group) == 1)
        try:
            scope = self._scope(group)
            known = [f for f in self.known if abs(f) in scope and local.reads(abs(f))]
            candidates = [f for f in self.unknown if abs(f) in scope and local.reads(abs(f))]
            for fact in _forced(local, known, candidates):
                old = self.best.get(fact)  # only a step cheaper than the one known for this fact is of use
                below = None if old is None else old.cost - len(units)
                used = local.smallest([-fact], known, below, rounds=self.PAIR_ROUNDS if len(group) > 1 else None)
                self._offer(Step(fact, units, tuple(used)))
        finally:
            if len(group) > 1:
                local.close()

    def _look_at_graph(self, group: tuple[int, ...]) -> None:
        """What a unit with a graph constraint (a rule over the whole board), or a pair with one, forces: only
        the facts it did not force before are asked for (what it forced stays forced), and a step is looked for
        only for those and for the forced facts next to a fact learnt since (``stale``), each near its fact
        first (``_graph_step``).  A question about a loop is a search with cuts: asking it again for every fact
        after every step was most of the time a 10x10 Slitherlink took."""
        self.looked.add(group)
        local, known = self._graph_solver(group)
        forced = self.forced[group]
        scope = self._scope(group)
        if local.in_search:  # a loop: questions from the target's phases, solutions kept (``_forced_apart``)
            targets = [f for f in self.target if abs(f) in scope and local.reads(abs(f))]
            shown = self._shown(group)
            candidates = [f for f in targets if f in self.unknown and f not in forced and abs(f) not in shown]
            graph = next(u for u in group if (u,) in self.near)
            fresh = list(_forced_apart(local, known, sorted(candidates, key=abs), targets, self.apart[graph]))
        else:  # a connected set, asked in rounds of cuts: one solution from phases against all rules out more
            candidates = [f for f in self.unknown if abs(f) in scope and local.reads(abs(f)) and f not in forced]
            if len(group) > 1:  # only what the graph unit with all its partners forces can a pair force
                allowed = self._forced_with_partners(next(u for u in group if (u,) in self.near))
                candidates = [f for f in candidates if f in allowed]
            fresh = list(_forced(local, known, candidates))
        forced.update(fresh)
        again = [f for f in sorted(self.stale[group], key=abs) if f in self.unknown and f not in fresh]
        self.stale[group].clear()
        for fact in [*fresh, *again]:
            self._offer(self._graph_step(group, fact, local, known))

    def _shown(self, group: tuple[int, ...]) -> set[int]:
        """The variables about which graph group ``group`` is shown not to force the target's fact by a kept
        solution of its graph unit (``apart``, those contradicting a known fact dropped) in which its partner,
        if any, holds too: a partner's check reads only the target's facts (a Slitherlink clue does; a
        Nurikabe rule reads who owns each cell, which a kept solution does not say, so it gets none).
        Pairs of a loop with each clue asked every candidate again, most of the time a 20x20 took."""
        graph = next(u for u in group if (u,) in self.near)
        told = {abs(f) for f in self.known}
        apart = self.apart[graph] = [a for a in self.apart[graph] if a.isdisjoint(told)]
        units = self.reasoner.units
        partners = [units[u] for u in group if u != graph]
        if any(not unit.reads <= unit.scope for unit in partners):
            return set()
        constraints = self.reasoner.model.constraints
        shown: set[int] = set()
        for found in apart:

            def value(literal: int, found: frozenset[int] = found) -> bool:
                return (literal in self.target) != (abs(literal) in found)

            if all(
                found.isdisjoint(unit.scope) or all(semantics.holds(constraints[i], value) for i in unit.constraints)
                for unit in partners
            ):
                shown |= found
        return shown

    def _scope(self, group: tuple[int, ...]) -> set[int]:
        return set().union(*(self.reasoner.units[u].scope for u in group))

    def _graph_solver(self, group: tuple[int, ...]) -> tuple[Local | Switched, list[int]]:
        """The kept solver of a graph group, and the known facts it reads."""
        reasoner = self.reasoner
        local = reasoner.local([reasoner.selector[reasoner.units[u].label] for u in group])
        scope = self._scope(group)
        return local, [f for f in self.known if abs(f) in scope and local.reads(abs(f))]

    def _graph_step(self, group: tuple[int, ...], fact: int, local: Local | Switched, known: Sequence[int]) -> Step:
        """The step of graph group ``group`` forcing ``fact`` (which it forces with ``known``): the known facts
        nearest to it that do (those within 1, 2, 4, 8, 16 edges of it, then all), cut to a subset-minimal set
        (within ``HARD`` conflicts for a loop, ``HARD_ROUNDS`` rounds for a connected set), the farthest tried
        first for dropping.  The solver's phases are
        the solution's (but ``fact``'s): a search with cuts that starts from one loop finds another near it in a
        few rounds."""
        self.reasoner.check_time()
        near = self.near[group]
        distance = {abs(fact): 0}
        frontier = [abs(fact)]
        while frontier:
            following = []
            for var in frontier:
                for other in near.get(var, ()):
                    if other not in distance:
                        distance[other] = distance[var] + 1
                        following.append(other)
            frontier = following
        far = len(distance) + 1
        order = sorted(known, key=lambda f: distance.get(abs(f), far))
        local.set_phases([*(f for f in self.target if f != fact), -fact])
        effort = self.HARD if local.in_search else self.HARD_ROUNDS
        used: list[int] | None = None
        for radius in (1, 2, 4, 8, 16):
            part = [f for f in order if distance.get(abs(f), far) <= radius]
            if len(part) == len(order):
                break
            if local.settle([*part, -fact], effort) is False:
                used = local.shrink([-fact], part[::-1], effort)
                break
        if used is None:
            used = local.shrink([-fact], order[::-1], effort)
        position = {f: i for i, f in enumerate(self.known)}
        self.found_at[fact] = len(self.known)
        units = tuple(self.reasoner.units[u] for u in group)
        return Step(fact, units, tuple(sorted(used, key=position.__getitem__)))

    def _offer(self, step: Step) -> None:
        old = self.best.get(step.fact)
        if old is None or step.cost < old.cost:
            self.best[step.fact] = step
            heapq.heappush(self.queue, (self._rank(step), step.fact))

    def _rank(self, step: Step) -> tuple[int, int, int]:
        """Cheapest first; at equal cost a fact that something holds before one that does not, then the
        unit met first."""
        return (step.cost, 0 if step.fact > 0 else 1, self.reasoner.units.index(step.units[0]))

    def _first_rank(self) -> tuple[int, int, int] | None:
        """The rank of the cheapest step known, its queue's stale entries (facts learnt since) dropped."""
        while self.queue and (self.queue[0][1] not in self.unknown or self.queue[0][1] not in self.best):
            heapq.heappop(self.queue)
        return self.queue[0][0] if self.queue else None

    def _cheapest_known(self) -> Step | None:
        if self._first_rank() is None:
            return None
        return self.best[heapq.heappop(self.queue)[1]]

    def _from_groups(self) -> Step | None:
        """The cheapest step of one unit or of two.  A unit alone often needs more facts than a pair of units
        needs, so pairs are looked at when no unit alone forces a fact at cost ``PAIRS_ABOVE`` or less, and
        the cheaper step is taken; a pair with a graph constraint (a search with cuts for each question, on a
        Slitherlink most of the time) only when no unit alone forces a fact."""
        step = None
        for level in range(2):
            if level == len(self.levels):
                self._add_pairs()
            groups = self.levels[level]
            dirty = sorted(self.dirty[level], key=lambda g: groups[g] in self.near)  # graph groups last
            for g in dirty:
                if step is not None and groups[g] in self.near:
                    continue  # a pair with a rule over the whole board: only when no unit alone forces a fact
                if self._idle(groups[g]):
                    self.dirty[level].discard(g)
                    continue
                if self._can_wait(groups[g]):
                    continue
                self.reasoner.check_time()
                self._look_at(groups[g])
                self.dirty[level].discard(g)
            step = self._refreshed(self._cheapest_known())
            if step is not None and (step.cost <= self.PAIRS_ABOVE or level == 1):
                return step
            if step is not None:  # kept for the comparison with the pairs' steps
                heapq.heappush(self.queue, (self._rank(step), step.fact))
        return self._cheapest_known()

    def _idle(self, group: tuple[int, ...]) -> bool:
        """Whether a pair with a graph constraint can force no fact at a lower cost than its graph unit alone:
        its partner lets every assignment of what they share be (``Reasoner.adds_nothing``), or is one clause a
        known fact satisfies (the graph unit with that fact forces what the pair forces, at the same cost).  It
        stays so as more facts become known, and is not looked at again."""
        if len(group) == 1 or group not in self.near:
            return False
        if group in self.idle:
            return True
        units = self.reasoner.units
        graph = next(u for u in group if (u,) in self.near)
        partner = units[next(u for u in group if u != graph)]
        constraints = [self.reasoner.model.constraints[i] for i in partner.constraints]
        told = set(self.known)
        satisfied = len(constraints) == 1 and isinstance(constraints[0], Clause)
        if satisfied and not told.isdisjoint(constraints[0].literals):
            self.idle.add(group)
        elif group not in self.judged:
            self.judged.add(group)
            if self.reasoner.adds_nothing(units[graph], partner):
                self.idle.add(group)
        return group in self.idle

    def _forced_with_partners(self, graph: int) -> set[int]:
        """The unknown facts that graph unit ``graph`` forces with the known facts and every partner it has in a pair
        not idle (``_idle``), all on at once: a pair of it forces no other (more units force more), so a pair is
        asked only about these.  Found once for the facts known now, each question from the target's phases but the
        candidate's, and each solution found kept (as where it leaves the target) while no fact known contradicts
        it, as for a loop (``_forced_apart``).  A Nurikabe's sea pairs with every 2x2 block, and each pair was
        asked again after every step; the sea with all the blocks forces few facts, and from phases against every
        candidate each such question took half a second on a 24x14 (its kept solutions died at the next fact)."""
        known_now = len(self.known)
        since, forced, apart = self.with_partners.get(graph, (0, set(), []))
        if since == known_now and graph in self.with_partners:
            return forced
        told = {abs(f) for f in self.known[since:]}
        apart = [found for found in apart if found.isdisjoint(told)]  # still a solution with the facts known
        units = self.reasoner.units
        partners = {u for pair in self.levels[1] if graph in pair and not self._idle(pair) for u in pair if u != graph}
        selectors = [self.reasoner.selector[units[u].label] for u in (graph, *sorted(partners))]
        local = self.reasoner.local(selectors)
        scope = self._scope((graph, *partners))
        known = [f for f in self.known if abs(f) in scope and local.reads(abs(f))]
        forced = {f for f in forced if f in self.unknown}  # what they forced they still force
        shown = set().union(*apart)
        targets = [f for f in self.target if abs(f) in scope and local.reads(abs(f))]
        candidates = [f for f in targets if f in self.unknown and f not in forced and abs(f) not in shown]
        forced |= set(_forced_apart(local, known, sorted(candidates, key=abs), targets, apart))
        self.with_partners[graph] = (known_now, forced, apart)
        return forced

    def _add_pairs(self) -> None:
        """The second level of groups: pairs of units (``_pairs``), those with a graph unit set up as its own."""
        self.levels.append(self._pairs())
        for pair in self.levels[1]:
            graph = [u for u in pair if (u,) in self.near]
            if graph:
                self.near[pair] = self.near[(graph[0],)]
                self.forced[pair] = set()
                self.stale[pair] = set()
        self.readers.append(self._readers(self.levels[1]))
        self.dirty.append(set(range(len(self.levels[1]))))

    def _can_wait(self, group: tuple[int, ...]) -> bool:
        """Whether a graph group already looked at cannot give a step that comes before the cheapest one known:
        a new step of it uses at least one known fact (what it forces with none was found the first time), so it
        costs more than its units, and ranks at best (units + 1, a fact that holds, its first unit).  It stays
        to be looked at (a question about a loop is a search with cuts; most steps of a Slitherlink are a clue
        alone, and asking the loop before each was most of the time a 20x20 took)."""
        if group not in self.near or group not in self.looked:
            return False
        first = self._first_rank()
        return first is not None and first < (len(group) + 1, 0, group[0])

    def _refreshed(self, step: Step | None) -> Step | None:
        """``step``, or when it is a graph group's found with fewer facts known, the cheapest step known after
        looking for its fact's again with the facts known now (a cheaper set may force it now)."""
        units = self.reasoner.units
        while step is not None:
            group = tuple(units.index(unit) for unit in step.units)
            if group not in self.near or self.found_at.get(step.fact, len(self.known)) >= len(self.known):
                return step
            local, known = self._graph_solver(group)
            again = self._graph_step(group, step.fact, local, known)
            if again.cost >= step.cost:
                return step
            self._offer(again)
            step = self._cheapest_known()
        return step

    # ------------------------------------------------------------------ several units

    def _several_units(self) -> Step | None:
        """A cheap set of units and known facts forcing some unknown target fact.  For ``TRIED`` unknown facts,
        the smallest ring of units around it that forces it (``_forcing_ring``); then, for the ``SHRUNK`` whose
        first core is smallest, a subset-minimal set of its units and known facts (deletion refined by cores);
        the cheapest of these.  Cutting every one of them to a minimal set was most of the time a Nurikabe took,
        whose steps mostly need several units.

        Which facts are tried: the board's first unknown ones, except in a model with a rule over the whole
        board (``near``), where those not tried yet come first, then those whose ring's first core was smallest
        (``estimate``), a deletion stops once it cannot beat the best so far, and one in a ring with a connected
        set gets ``RING_ROUNDS`` rounds of cuts (its set may then not be minimal).  On a 24x14 Nurikabe the
        board's first facts took rings of 60 to 100 units while others took 3 to 10; without such a rule every
        ring is small, and the board's order with whole deletions made cheaper sequences (sudoku14 2046, 2544
        with the Nurikabe's order)."""
        if len(self.rings) > self.RINGS_KEPT:
            self.close()
        spread = bool(self.near)  # rings can be large: order by their cores, stop deletions early
        estimate = self.estimate if spread else {}
        tried = sorted(self.unknown, key=lambda f: (estimate.get(f, 0), f < 0, abs(f)))[: self.TRIED]
        found: list[tuple[int, Ring, list[int], int]] = []
        for order, fact in enumerate(tried):
            self.reasoner.check_time()
            found.append((*self._forcing_ring(fact), order))
            self.estimate[fact] = found[-1][0]
        found.sort(key=lambda item: (item[0], item[3]))
        best: tuple[int, int, Step] | None = None  # at equal cost, the fact tried first
        for _, ring, known, order in found[: self.SHRUNK]:
            fact = tried[order]
            # a set this large cannot beat the best step found: the deletion stops once it knows that much is needed
            enough = None if best is None or not spread else best[0] + (1 if order < best[1] else 0)
            effort = self.RING_ROUNDS if spread and not ring.local.in_search else None
            used = ring.local.shrink([-fact], [*known, *ring.units], effort, enough)
            step = self._step_of(fact, used, ring.units)
            if best is None or (step.cost, order) < best[:2]:
                best = (step.cost, order, step)
        return None if best is None else best[2]

    def _forcing_ring(self, fact: int) -> tuple[int, Ring, list[int]]:
        """The smallest ring of units around ``fact`` that, with the known facts about their variables,
        forces it: the size of the core its solver gave, the ring, and those known facts.  The units that
        read its variable, then those sharing a variable with these, and so on (one ring at a time)."""
        units = self.reasoner.units
        region = set(self.reading.get(abs(fact), ()))
        while True:
            ring = self._ring(region)
            known = [f for f in self.known if abs(f) in ring.scope]
            if not ring.local.solve([*ring.units, *known, -fact]):
                return len(ring.local.core()), ring, known
            if len(region) == len(units):
                raise RuntimeError(f"nothing forces {fact}: the target is not the only solution")
            region = self._grown(region, through_graphs=False) or self._grown(region, through_graphs=True)
            region = region or set(range(len(units)))

    def _grown(self, region: set[int], through_graphs: bool) -> set[int] | None:
        """The region with every unit that reads a variable its units read (own or not); a unit with a graph
        constraint (a rule over the whole board) joins but, unless ``through_graphs``, does not widen the
        ring by its variables (that would take every unit at once).  None when nothing joins."""
        units = self.reasoner.units
        spreading = [u for u in region if through_graphs or (u,) not in self.near]
        variables = set().union(*(units[u].reads for u in spreading))
        grown = region | {u for var in variables for u in self.reading.get(var, ())}
        return grown if grown != region else None

    def _ring(self, region: set[int]) -> Ring:
        """A small solver over these units (their selectors kept), built once and kept (``rings``)."""
        key = frozenset(region)
        if key not in self.rings:
            reasoner = self.reasoner
            reasoner.check_time()
            local, by_selector = reasoner.switchable([reasoner.units[u] for u in sorted(region)])
            scope = frozenset().union(*(reasoner.units[u].scope for u in region))
            self.rings[key] = Ring(local, by_selector, scope)
        return self.rings[key]

    def _step_of(self, fact: int, used: Sequence[int], by_selector: Mapping[int, Unit]) -> Step:
        """The step forcing ``fact`` from these selectors and facts, its units in the model's order."""
        order = {unit.label: i for i, unit in enumerate(self.reasoner.units)}
        units = tuple(sorted((by_selector[s] for s in used if s in by_selector), key=lambda unit: order[unit.label]))
        return Step(fact, units, tuple(f for f in used if f not in by_selector))

    # ------------------------------------------------------------------ the sequence

    def next_step(self) -> Step | None:
        """The cheapest step found from the known facts, or None when every target fact is known (or nothing
        forces any: the target is not the only solution)."""
        if not self.unknown:
            return None
        return self._from_groups() or self._several_units()

    def learn(self, step: Step) -> None:
        """Take ``step``'s fact as known."""
        self.known.append(step.fact)
        self.unknown.discard(step.fact)
        self.best.pop(step.fact, None)
        for readers, dirty in zip(self.readers, self.dirty):
            dirty.update(readers.get(abs(step.fact), ()))
        for group, near in self.near.items():
            nearby = near.get(abs(step.fact), set())
            self.stale[group].update(f for f in self.forced[group] if abs(f) in nearby and f in self.unknown)

    def run(self, on_step: Callable[[Step], None]) -> bool:
        """Steps until every target fact is known; ``on_step`` sees each as it is found.  False when stuck."""
        while self.unknown:
            step = self.next_step()
            if step is None:
                return False
            self.learn(step)
            on_step(step)
        return True


def _forced(local: Local | Switched, known: Sequence[int], candidates: list[int]) -> Iterator[int]:
    """Each candidate fact that ``local``'s units force with ``known``, last candidate asked first: a
    solution that keeps a candidate's negation rules out every candidate it contradicts at once (its phases
    are set against the candidates, so one solution rules out many)."""
    while candidates:
        local.set_phases([-f for f in candidates])
        fact = candidates[-1]
        if local.solve([*known, -fact]):
            true = local.true_variables()
            candidates = [f for f in candidates if (abs(f) in true) == (f > 0)]
            continue
        candidates.pop()
        yield fact


def _forced_apart(
    local: Local | Switched,
    known: Sequence[int],
    candidates: list[int],
    targets: Sequence[int],
    apart: list[frozenset[int]],
) -> Iterator[int]:
    """``_forced`` for a loop's group (a question is a search with cuts inside it): each question starts from the
    target but the candidate, and the solution found, if any, is near the target, so it rules out few candidates
    but takes a few rounds of cuts (on a 20x20 Slitherlink 5 ms a question, against 0.1 s from phases against
    every candidate; a Nurikabe's connected sea, asked in rounds of cuts, took eight times longer this way).
    Each solution found goes into ``apart`` as the variables where it leaves the target (``targets``): it
    rules out those candidates as long as none of these variables is known."""
    open_ = set(candidates)
    for fact in candidates:
        if fact not in open_:
            continue
        local.set_phases([*(f for f in targets if f != fact), -fact])
        if local.solve([*known, -fact]):
            true = local.true_variables()
            found = frozenset(abs(f) for f in targets if (abs(f) in true) != (f > 0))
            apart.append(found)
            open_.difference_update([*found, *(-var for var in found)])
            continue
        open_.discard(fact)
        yield fact


def facts_of(steps: Sequence[Step]) -> list[int]:
    return [step.fact for step in steps]
