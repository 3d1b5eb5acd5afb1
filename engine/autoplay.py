"""A small deterministic player for any rule set's prompts: the headless demo, ``hexa play --auto`` and tests.

It knows no rule set. Every answer is taken from what the prompt offers, so it can never play an
illegal action: dice get random faces of the requested dice (drawn from a seeded
:class:`random.Random` outside the rules), removals are confirmed, moves and choices lean towards the
goals the rule set offers (:meth:`engine.rules.base.RuleSet.goals`: the enemies by default, a token or
an exit where the scenario says so). Choices follow a few plain aims read from the options themselves:
attack an enemy named by an option (a clear line of sight first), pick a carrier first among one's own
figures, and of places on the board take the one nearest the goals — unless staying is nearer.

It also explores, so that auto games play every part of a rule set and each seed plays another game. A
choice first draws the option's kind (:mod:`engine.option_kinds`: ``hold``, ``suppress``, ``prone``,
``push``, ``number`` …) with weights: the kind of the plain aim's answer is favoured, a kind this player
has not chosen yet is likelier still, and kinds already chosen grow rarer each time. Within the drawn kind
the plain aim decides, or now and then chance (an outcome the table would roll for, a place to wander to).
Exploring fades out after :data:`EXPLORE_ANSWERS` answers, so a long game ends as the plain aims play it.
"""

from __future__ import annotations

import heapq
import logging
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.actions import Action, Choose, Move, Remove, Roll
from engine.board import Board, standable
from engine.board.base import Cell
from engine.events import Event
from engine.game import Game
from engine.hexes import Edge, edge
from engine.i18n import gettext_for
from engine.lines import Sight
from engine.option_kinds import OptionKinds, kinds_offered
from engine.prompts import Option, Prompt, PromptKind

log = logging.getLogger(__name__)
_ = gettext_for(__name__)

LOCKED_DOOR_COST = 3.0  # a locked door may take a few tries: make the way round competitive
KEEP_DISTANCE = 3  # figures with a ranged attack hold this far from the nearest enemy while others close in
UNREACHABLE = float("inf")
DEFAULT_MAX_ACTIONS = 5000
# Exploring: the weight of an option kind when a choice is drawn, and how often chance picks within a kind.
AIM_WEIGHT = 2.0  # the kind of the plain aim's answer (progress: attack, close in, take the token)
NEW_KIND_WEIGHT = 6.0  # a kind this player has not chosen yet: each part of the rules is tried early
CHOSEN_KIND_WEIGHT = 0.5  # a kind chosen before, divided by the times it was chosen
CHANCE_IN_KIND = 0.3  # within the drawn kind, chance picks instead of the plain aim this often
WANDER = 0.1  # a move goes to a random reachable cell this often
EXPLORE_ANSWERS = 400  # answers with full exploring; it then fades to the plain aims over as many more


class AutoPlayError(RuntimeError):
    """The game cannot go on under the auto player (over already, or the action bound reached)."""


# Per hex a figure may stand on: its standable neighbours not behind a side that blocks movement, with the door
# edge between them if any (a door may be locked: dearer to pass).
WalkGraph = dict[Cell, list[tuple[Cell, Edge | None]]]


def walk_graph(board: Board) -> WalkGraph:
    """Where figures may walk, read from the board's terrain and edge kinds (built once per board: the edge
    lookups are the costly part). A cell is in it when its kind is standable; a side is crossed unless its kind
    blocks movement, and a door is crossed as if it opens."""
    kinds = board.kinds
    specs = board.edge_kinds
    graph: WalkGraph = {}
    for h in board:
        if not standable(board.terrain(h), kinds):
            continue
        links = []
        for n in board.neighbours(h):
            if not standable(board.terrain(n), kinds):
                continue
            e = edge(h, n)
            name = board.edges.get(e)
            spec = specs[name] if name is not None else None
            if spec is not None and not spec.door and spec.blocks_movement:
                continue
            links.append((n, e if spec is not None and spec.door else None))
        graph[h] = links
    return graph


def distance_field(game: Game, goals: Iterable[Cell], side: str, graph: WalkGraph | None = None) -> dict[Cell, float]:
    """Walking distance to the nearest goal hex over standable ground (doors count as passable, locked ones dearer).

    Enemy figures block the way except on goal hexes themselves; friends are ignored (a move may pass
    them). Computed from the goals outwards (Dijkstra), so one field serves every figure of a side.
    """
    graph = graph if graph is not None else walk_graph(game.scenario.board)
    state = game.state
    enemy_hexes = {f.hex for f in state.alive() if f.side != side and f.hex is not None}
    dist: dict[Cell, float] = {}
    heap: list[tuple[float, int, int, Cell]] = []
    for g in set(goals):
        dist[g] = 0.0
        heapq.heappush(heap, (0.0, g.q, g.r, g))
    while heap:
        d, _tie, _order, h = heapq.heappop(heap)
        if d > dist.get(h, UNREACHABLE):
            continue
        for n, locked_edge in graph.get(h, ()):
            if n in enemy_hexes:
                continue
            nd = d + 1.0
            if locked_edge is not None and state.doors.get(locked_edge) == "locked":
                nd += LOCKED_DOOR_COST
            if nd < dist.get(n, UNREACHABLE):
                dist[n] = nd
                heapq.heappush(heap, (nd, n.q, n.r, n))
    return dist


_Offer = TypeVar("_Offer")  # a move's cell or a place's option


@dataclass
class AutoPlayer:
    """Answers any prompt of a :class:`Game`; the same seed gives the same game, another seed another game.

    ``explore`` scales the exploring (0: only the plain aims, chance only in the dice). ``crowded`` names
    cells a figure is not sent to while another move or place is offered (the demo's hand builds no stack whose
    tags the camera could not tell apart); it takes the game, the figure and the cell.
    """

    seed: int = 0
    explore: float = 1.0
    crowded: Callable[[Game, str, Cell], bool] | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self._graphs: dict[int, tuple[Board, WalkGraph]] = {}
        self._kinds: tuple[Game, OptionKinds] | None = None
        self._clear: tuple[Prompt, set[str]] | None = None
        self.chosen: dict[str, int] = {}  # option kind -> times this player chose it
        self.answers = 0

    def exploring(self) -> float:
        """How much this answer explores: ``explore`` at first, fading to nothing after ``EXPLORE_ANSWERS``."""
        fade = 1.0 - max(0, self.answers - EXPLORE_ANSWERS) / EXPLORE_ANSWERS
        return self.explore * max(0.0, fade)

    def option_kinds(self, game: Game) -> OptionKinds:
        """The option-kind reader for ``game`` (kept per game: it holds the figures and the cell labels)."""
        if self._kinds is None or self._kinds[0] is not game:
            self._kinds = (game, OptionKinds.of(game))
        return self._kinds[1]

    def _field(self, game: Game, figure: str) -> dict[Cell, float]:
        """Walking distance of every hex to the goals the rule set offers for ``figure``.

        When enemies bar every way to those goals, the enemies themselves become the aim: fight through.
        """
        board = game.scenario.board
        cached = self._graphs.get(id(board))
        if cached is None or cached[0] is not board:
            cached = (board, walk_graph(board))
            self._graphs[id(board)] = cached
        fig = game.state.figures[figure]
        field = distance_field(game, game.rules.goals(game.state, figure), fig.side, cached[1])
        if fig.hex is not None and fig.hex not in field:
            enemies = [f.hex for f in game.state.alive() if f.side != fig.side and f.hex is not None]
            field = distance_field(game, enemies, fig.side, cached[1])
        return field

    def choose(self, game: Game) -> Action:
        """The answer to the game's current prompt."""
        prompt = game.prompt
        if prompt.kind is PromptKind.GAME_OVER:
            raise AutoPlayError(f"the game is over ({prompt.text}): there is nothing to answer")
        if prompt.kind is PromptKind.ROLL:
            return Roll(tuple(self.rng.randint(1, d.sides) for d in prompt.dice), virtual=True)
        if prompt.kind is PromptKind.REMOVE:
            assert prompt.figure is not None
            return Remove(prompt.figure)
        self.answers += 1
        if prompt.kind is PromptKind.MOVE:
            return self._move(game, prompt)
        return Choose(self._draw(game, prompt).id)

    # -- choices -----------------------------------------------------------------------------------
    def _draw(self, game: Game, prompt: Prompt) -> Option:
        """An option of a kind drawn with weights (see the module), then the aim's or chance's pick of that kind."""
        explore = self.exploring()
        aim = self._option(game, prompt, prompt.options)
        if explore <= 0.0:
            return aim
        kinds = self.option_kinds(game)
        offered = kinds_offered(prompt.options, kinds)
        aim_kind = kinds.kind(aim)
        weights = []
        for kind in offered:
            times = self.chosen.get(kind, 0)
            weight = (NEW_KIND_WEIGHT if times == 0 else CHOSEN_KIND_WEIGHT / times) * explore
            weights.append(weight + AIM_WEIGHT if kind == aim_kind else weight)
        kind = self.rng.choices(list(offered), weights)[0]
        self.chosen[kind] = self.chosen.get(kind, 0) + 1
        options = offered[kind]
        if self.rng.random() < CHANCE_IN_KIND * explore:
            return self.rng.choice(options)
        return aim if kind == aim_kind else self._option(game, prompt, options)

    def _option(self, game: Game, prompt: Prompt, options: Sequence[Option]) -> Option:
        """The plain aims' pick among ``options`` (see the module)."""
        state = game.state
        named = [o for o in options if o.figure is not None and o.figure in state.figures]
        enemies = [o for o in named if state.figures[o.figure or ""].side != prompt.side]
        if enemies:
            clear = self._clear_targets(game, prompt)
            return min(enemies, key=lambda o: self._attack_rank(game, prompt, o, clear))
        own = [o for o in named if o not in enemies]
        if own:
            carriers = [o for o in own if state.figures[o.figure or ""].carrying]
            return (carriers or own)[0]
        places = [o for o in options if o.hex is not None]
        if places and prompt.figure is not None and prompt.figure in state.figures:
            return self._place(game, prompt, places, options)
        return options[0]

    def _clear_targets(self, game: Game, prompt: Prompt) -> set[str]:
        """The figures some figure of the prompt's side may target along a clear line (once per prompt)."""
        if self._clear is None or self._clear[0] is not prompt:
            clear = {
                info.target
                for f in game.state.alive()
                if f.side == prompt.side
                for info in game.targets(f.id)
                if info.allowed and info.sight is Sight.CLEAR
            }
            self._clear = (prompt, clear)
        return self._clear[1]

    def _attack_rank(self, game: Game, prompt: Prompt, opt: Option, clear: set[str]) -> tuple[int, int, int]:
        """Clear lines before unclear ones, token carriers first, then the order offered."""
        target = game.state.figures[opt.figure or ""]
        return (int(target.id not in clear), int(not target.carrying), prompt.options.index(opt))

    def _place(self, game: Game, prompt: Prompt, places: list[Option], options: Sequence[Option]) -> Option:
        """The offered place nearest the goals; an option without a place (stay) only when staying is nearer."""
        fig = game.state.figures[prompt.figure or ""]
        places = self._roomy(game, fig.id, places, lambda o: o.hex)
        field = self._field(game, fig.id)
        best = min(places, key=lambda o: field.get(o.hex, UNREACHABLE) if o.hex else UNREACHABLE)
        stay = next((o for o in options if o.hex is None), None)
        here = field.get(fig.hex, UNREACHABLE) if fig.hex is not None else UNREACHABLE
        if stay is not None and best.hex is not None and field.get(best.hex, UNREACHABLE) > here:
            return stay
        return best

    # -- movement ----------------------------------------------------------------------------------
    def _move(self, game: Game, prompt: Prompt) -> Move:
        state = game.state
        fig = state.figures[prompt.figure or ""]
        assert fig.hex is not None
        goals = game.rules.goals(state, fig.id)
        field = self._field(game, fig.id)
        chasing = not fig.carrying and goals and all(state.figures_at(g) for g in goals)
        ranged = bool(game.targets(fig.id))
        close_fighters = any(not game.targets(f.id) for f in state.alive() if f.side == fig.side)
        keep_off = chasing and ranged and close_fighters
        threatened = game.threatened(fig.side) if fig.carrying else set()

        def score(h: Cell) -> tuple[float, int, float, int, int]:
            d = field.get(h, UNREACHABLE)
            aim = abs(d - KEEP_DISTANCE) if keep_off and d != UNREACHABLE else d
            return (aim, int(h in threatened), prompt.moves[h].cost, h.q, h.r)

        moves = self._roomy(game, fig.id, list(prompt.moves), lambda h: None if h == fig.hex else h)
        wander = WANDER * self.exploring()
        if wander > 0.0 and self.rng.random() < wander:
            return Move(fig.id, self.rng.choice(sorted(moves, key=lambda h: (h.q, h.r))))
        return Move(fig.id, min(moves, key=score))

    def _roomy(self, game: Game, figure: str, offered: list[_Offer], cell_of: Callable[[_Offer], Cell | None]
               ) -> list[_Offer]:
        """``offered`` without those whose cell is :attr:`crowded` for ``figure`` (all of them when every one is)."""
        if self.crowded is None:
            return offered
        crowded = self.crowded
        roomy = [o for o in offered if (c := cell_of(o)) is None or not crowded(game, figure, c)]
        return roomy or offered


@dataclass(frozen=True)
class Step:
    """One answered prompt of an auto-played game."""

    prompt: Prompt
    action: Action
    events: tuple[Event, ...]


def stopped_message(actions: int, game: Game) -> str:
    """What to tell people when a game hits the action bound."""
    return _("stopped after {n} actions: nobody could win (round {round}, next: {prompt}). Check the scenario's "
             "victory conditions can be met (an exit on the map, a reachable token)", n=actions,
             round=game.state.round, prompt=game.prompt.text)


def play_out(
    game: Game,
    player: AutoPlayer,
    *,
    max_steps: int = DEFAULT_MAX_ACTIONS,
    apply: Callable[[Action], list[Event]] | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> list[Step]:
    """Answer prompts until the game-over prompt; ``apply`` lets a journaled game record each action.

    Raises :class:`AutoPlayError` when ``max_steps`` answers did not finish the game (nobody could win).
    """
    do = apply or game.apply
    steps: list[Step] = []
    # A victory may leave figures to take off the table: those removals are answered too.
    while game.prompt.kind is not PromptKind.GAME_OVER:
        if len(steps) >= max_steps:
            raise AutoPlayError(stopped_message(len(steps), game))
        prompt = game.prompt
        action = player.choose(game)
        step = Step(prompt, action, tuple(do(action)))
        steps.append(step)
        if on_step is not None:
            on_step(step)
    return steps
