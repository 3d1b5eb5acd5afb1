"""A small deterministic player for Fantasy Battle prompts: the headless demo, ``hexa play --auto`` and tests.

Rolls are virtual, drawn from a seeded :class:`random.Random` outside the rules. Choices follow a few
plain aims: shoot the clear target with the best odds (an unclear line, with its roll-off, only when
no clear one is offered), carry the scenario's token to its exit hexes,
otherwise close in on the nearest enemy, advance after winning, fall back away from enemies. Every
answer is taken from what the prompt offers, so the policy can never play an illegal action.
"""

from __future__ import annotations

import heapq
import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.actions import Action, Choose, Move, Remove, Roll
from engine.board import EdgeKind, HexBoard, Terrain
from engine.events import Event
from engine.game import Game
from engine.hexes import Edge, Hex, edge
from engine.lines import Sight
from engine.prompts import Option, Prompt, PromptKind
from engine.scenario import FigureKind
from engine.state import FigureState

log = logging.getLogger(__name__)

LOCKED_DOOR_COST = 3.0  # a locked door may take a few tries: make the way round competitive
KEEP_DISTANCE = 3  # archers and wizards hold this far from the nearest enemy while fighters remain
UNREACHABLE = float("inf")


class AutoPlayError(RuntimeError):
    """The game cannot go on under the auto player (over already, or a step cap reached)."""


def _shot_odds(game: Game, shooter: str, target: str, action: str, sight: Sight) -> float:
    """Chance that a declared shot or spell kills, counting the roll-off of an unclear line (RULES.md §1).

    Any clear attack (at least 1/6) beats any unclear one (at most 1/3 × 15/36), so clear targets come first.
    """
    target_kind = game.scenario.figure(target).kind
    if action == "cast":
        odds = 1 / 6
    else:
        save_at = 4 if target_kind is FigureKind.WIZARD else 5
        odds = 0.5 * (save_at - 1) / 6
    if sight is Sight.AMBIGUOUS:
        odds *= 15 / 36
    return odds


# Per floor hex: its floor neighbours not behind a wall, with the door edge between them if any.
WalkGraph = dict[Hex, list[tuple[Hex, Edge | None]]]


def walk_graph(board: HexBoard) -> WalkGraph:
    """The board's open floor as a graph (built once per board: the edge lookups are the costly part)."""
    graph: WalkGraph = {}
    for h in board:
        if board.terrain(h) is not Terrain.FLOOR:
            continue
        links = []
        for n in h.neighbours():
            if n not in board or board.terrain(n) is not Terrain.FLOOR:
                continue
            e = edge(h, n)
            kind = board.edges.get(e)
            if kind is EdgeKind.WALL:
                continue
            links.append((n, e if kind is EdgeKind.LOCKED_DOOR else None))
        graph[h] = links
    return graph


def distance_field(game: Game, goals: Iterable[Hex], side: str, graph: WalkGraph | None = None) -> dict[Hex, float]:
    """Walking distance to the nearest goal hex over open floor (doors count as passable, locked ones dearer).

    Enemy figures block the way except on goal hexes themselves; friends are ignored (a move may pass
    them). Computed from the goals outwards (Dijkstra), so one field serves every figure of a side.
    """
    graph = graph if graph is not None else walk_graph(game.scenario.board)
    state = game.state
    enemy_hexes = {f.hex for f in state.alive() if f.side != side and f.hex is not None}
    dist: dict[Hex, float] = {}
    heap: list[tuple[float, int, int, Hex]] = []
    for g in set(goals):
        dist[g] = 0.0
        heapq.heappush(heap, (0.0, g.q, g.r, g))
    while heap:
        d, _, _, h = heapq.heappop(heap)
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


@dataclass
class AutoPlayer:
    """Answers any Fantasy Battle prompt of a :class:`Game`; the same seed gives the same game."""

    seed: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self._graphs: dict[int, tuple[HexBoard, WalkGraph]] = {}

    def _field(self, game: Game, goals: Iterable[Hex], side: str) -> dict[Hex, float]:
        board = game.scenario.board
        cached = self._graphs.get(id(board))
        if cached is None or cached[0] is not board:
            cached = (board, walk_graph(board))
            self._graphs[id(board)] = cached
        return distance_field(game, goals, side, cached[1])

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
        if prompt.kind is PromptKind.MOVE:
            return self._move(game, prompt)
        return Choose(self._option(game, prompt).id)

    # -- choices -----------------------------------------------------------------------------------
    def _option(self, game: Game, prompt: Prompt) -> Option:
        kind = str(game.state.step.get("kind", ""))
        picker: Callable[[Game, Prompt], Option | None] | None = {
            "ranged": self._ranged,
            "pick_enemy": self._pick_enemy,
            "retreat": self._retreat,
            "advance": self._advance,
            "select": self._select,
            "door": self._door,
        }.get(kind)
        chosen = picker(game, prompt) if picker is not None else None
        return chosen if chosen is not None else prompt.options[0]

    def _ranged(self, game: Game, prompt: Prompt) -> Option | None:
        best: tuple[float, bool] | None = None
        pick: Option | None = None
        for opt in prompt.options:
            if ">" not in opt.id:
                continue
            shooter, target = opt.id.split(">", 1)
            info = next((i for i in game.targets(shooter) if i.target == target), None)
            if info is None or not info.allowed:
                continue
            key = (_shot_odds(game, shooter, target, info.action, info.sight), info.sight is Sight.CLEAR)
            if best is None or key > best:
                best, pick = key, opt
        return pick if pick is not None else prompt.option("done")

    def _pick_enemy(self, game: Game, prompt: Prompt) -> Option | None:
        # Strike the token carrier first, then a wizard (it dies on 5–6), else the first offered.
        def score(opt: Option) -> tuple[int, int]:
            fig = game.state.figures.get(opt.id)
            carrying = int(bool(fig and fig.carrying))
            wizard = int(game.scenario.figure(opt.id).kind is FigureKind.WIZARD) if fig else 0
            return (-carrying, -wizard)

        return min(prompt.options, key=score)

    def _retreat(self, game: Game, prompt: Prompt) -> Option | None:
        loser = game.state.figures[prompt.figure] if prompt.figure else None
        side = loser.side if loser else ""
        enemies = [f.hex for f in game.state.alive() if f.side != side and f.hex is not None]

        def room(opt: Option) -> int:
            return min((opt.hex.distance(e) for e in enemies), default=0) if opt.hex else 0

        return max(prompt.options, key=room)

    def _advance(self, game: Game, prompt: Prompt) -> Option | None:
        winner = game.state.figures.get(prompt.figure or "")
        if winner is not None and winner.carrying:
            return prompt.option("stay")  # the carrier heads for the exit, not deeper in
        return prompt.option("advance")

    def _select(self, game: Game, prompt: Prompt) -> Option | None:
        # Carriers first (they have the furthest to go), then in the offered order.
        figures = [o for o in prompt.options if o.figure is not None]
        carriers = [o for o in figures if game.state.figures[o.id].carrying]
        ordered = carriers or figures
        return ordered[0] if ordered else None

    def _door(self, game: Game, prompt: Prompt) -> Option | None:
        fig = game.state.figures[prompt.figure or ""]
        goals = self._goals(game, fig)
        field = self._field(game, goals, fig.side)
        here = field.get(fig.hex, UNREACHABLE) if fig.hex else UNREACHABLE
        for opt in prompt.options:
            if opt.id.startswith("open:"):
                return opt  # opening costs nothing: the move follows at once
        for opt in prompt.options:
            if opt.id.startswith("unlock:") and fig.hex is not None:
                beyond = [
                    n for n in fig.hex.neighbours() if game.scenario.board.edge_label(edge(fig.hex, n)) == opt.id[7:]
                ]
                if beyond and field.get(beyond[0], UNREACHABLE) < here:
                    return opt
        return prompt.option("move")

    # -- movement ----------------------------------------------------------------------------------
    def _goals(self, game: Game, fig: FigureState) -> list[Hex]:
        state = game.state
        for v in game.scenario.victory:
            if v.type != "bring" or v.side != fig.side or v.token is None:
                continue
            if v.token in fig.carrying:
                return list(v.to)
            where = state.tokens.get(v.token)
            if where is not None and game.scenario.figure(fig.id).can_carry:
                return [where]
        return [f.hex for f in state.alive() if f.side != fig.side and f.hex is not None]

    def _move(self, game: Game, prompt: Prompt) -> Move:
        fig = game.state.figures[prompt.figure or ""]
        assert fig.hex is not None
        goals = self._goals(game, fig)
        field = self._field(game, goals, fig.side)
        chasing = not fig.carrying and goals and all(game.state.figure_at(g) is not None for g in goals)
        kind = game.scenario.figure(fig.id).kind
        fighters_left = any(
            game.scenario.figure(f.id).kind is FigureKind.FIGHTER for f in game.state.alive() if f.side == fig.side
        )
        keep_off = chasing and kind is not FigureKind.FIGHTER and fighters_left
        threatened = game.threatened(fig.side) if fig.carrying else set()

        def score(h: Hex) -> tuple[float, int, float, int, int]:
            d = field.get(h, UNREACHABLE)
            aim = abs(d - KEEP_DISTANCE) if keep_off and d != UNREACHABLE else d
            return (aim, int(h in threatened), prompt.moves[h].cost, h.q, h.r)

        best = min(prompt.moves, key=score)
        return Move(fig.id, best)


@dataclass(frozen=True)
class Step:
    """One answered prompt of an auto-played game."""

    prompt: Prompt
    action: Action
    events: tuple[Event, ...]


def play_out(
    game: Game,
    player: AutoPlayer,
    *,
    max_steps: int = 5000,
    apply: Callable[[Action], list[Event]] | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> list[Step]:
    """Answer prompts until the game-over prompt; ``apply`` lets a journaled game record each action.

    Raises :class:`AutoPlayError` when ``max_steps`` answers did not finish the game (a stuck flow).
    """
    do = apply or game.apply
    steps: list[Step] = []
    # A victory may leave figures to take off the table: those removals are answered too.
    while game.prompt.kind is not PromptKind.GAME_OVER:
        if len(steps) >= max_steps:
            raise AutoPlayError(f"the game did not end within {max_steps} answers (round {game.state.round})")
        prompt = game.prompt
        action = player.choose(game)
        step = Step(prompt, action, tuple(do(action)))
        steps.append(step)
        if on_step is not None:
            on_step(step)
    return steps
