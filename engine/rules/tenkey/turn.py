"""A Tenkey round as stages: the side with the initiative acts first, one character at a time.

A character moves (normal move, full move, or stays); an enemy it passes may obstruct it; after a
normal move or none it may attack a character in its zone, shoot, cast an area spell or a line.
The players roll everything as their game says and enter the outcomes: who won the initiative,
whom a misfire hits, hit or miss (resisted or not), and the hit points lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Choose, Move
from engine.events import Event
from engine.flow.machine import Stage
from engine.flow.words import possessive
from engine.hexes import Hex
from engine.prompts import Option, Prompt, PromptKind
from engine.state import GameState

from . import areas, lines, scenario_fields
from .geometry import labels
from .steps import (
    AreaRuling,
    AreaSide,
    ChooseAction,
    ChooseRoute,
    Damage,
    Initiative,
    LineDirection,
    Misfire,
    MoveMode,
    Obstruct,
    Outcome,
    PickCharacter,
    Walk,
)

if TYPE_CHECKING:
    from .rules import TenkeyBattle

END_TURN = "end"
MAX_DAMAGE_OPTIONS = 60  # hit points offered at once; a bigger blow is entered as "down"


def _done(r: TenkeyBattle, state: GameState, fid: str) -> None:
    state.add_to_set("acted", fid)
    state.step = PickCharacter()


# -- initiative --------------------------------------------------------------------------------------
def prompt_initiative(r: TenkeyBattle, state: GameState, step: Initiative) -> Prompt:
    options = tuple(Option(str(i), f"{p.name} won the initiative: acts first") for i, p in
                    enumerate(r.scenario.players))
    return Prompt(PromptKind.CHOOSE, r.scenario.players[0].sides[0],
                  "Initiative check: roll as your game says; who acts first?", options=options,
                  note="any player may enter it")


def apply_initiative(r: TenkeyBattle, state: GameState, step: Initiative, choice: Choose,
                     events: list[Event]) -> None:
    first = int(choice.option)
    order = [first, *(i for i in range(len(r.scenario.players)) if i != first)]
    events.append(Event("initiative", f"{r.scenario.players[first].name} won the initiative.", {"player": first}))
    state.turn_order = order
    state.active = 0
    state.round = max(state.round, 1)
    r.start_turn(state, events)


# -- picking the next character ------------------------------------------------------------------------
def prompt_pick(r: TenkeyBattle, state: GameState, step: PickCharacter) -> Prompt:
    options = [Option(fid, f"{r.name_of(fid)} in {r.label(r.zone(state, fid))} acts", r.zone(state, fid), fid)
               for fid in r.to_act(state)]
    options.append(Option(END_TURN, "end the turn (the others do nothing)"))
    return Prompt(PromptKind.CHOOSE, r.player_sides(state)[0], f"{r.active_name(state)}: who acts next?",
                  options=tuple(options))


def apply_pick(r: TenkeyBattle, state: GameState, step: PickCharacter, choice: Choose, events: list[Event]) -> None:
    if choice.option == END_TURN:
        r.end_phase(state, events)
        return
    state.step = MoveMode(choice.option)


def settle_pick(r: TenkeyBattle, state: GameState, step: PickCharacter, events: list[Event]) -> bool:
    """Everyone of the side has acted: the turn passes."""
    if r.to_act(state):
        return False
    r.end_phase(state, events)
    return True


# -- moving ----------------------------------------------------------------------------------------------
def prompt_mode(r: TenkeyBattle, state: GameState, step: MoveMode) -> Prompt:
    spec = r.spec(step.figure)
    name = r.name_of(step.figure)
    normal, full = scenario_fields.movement(spec), scenario_fields.full_movement(spec)
    options = (
        Option("normal", f"normal move, up to {normal:g} m, then act"),
        Option("full", f"full move, up to {full:g} m, and no action"),
        Option("stay", f"stay in {r.label(r.zone(state, step.figure))} and act"),
    )
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side, f"{name}: how does {name} move?",
                  figure=step.figure, options=options)


def apply_mode(r: TenkeyBattle, state: GameState, step: MoveMode, choice: Choose, events: list[Event]) -> None:
    if choice.option == "stay":
        state.step = ChooseAction(step.figure)
        return
    spec = r.spec(step.figure)
    full = choice.option == "full"
    metres = scenario_fields.full_movement(spec) if full else scenario_fields.movement(spec)
    state.step = Walk(step.figure, r.zone(state, step.figure), metres, full)


def prompt_walk(r: TenkeyBattle, state: GameState, step: Walk) -> Prompt:
    name = r.name_of(step.figure)
    return Prompt(PromptKind.MOVE, state.figures[step.figure].side,
                  f"Move {name} up to {step.metres:g} m (10 m a row, 3 m a column).", figure=step.figure,
                  moves=r.move_reach(state, step.figure, step.metres))


def apply_walk(r: TenkeyBattle, state: GameState, step: Walk, move: Move, events: list[Event]) -> None:
    start = r.zone(state, step.figure)
    routes = r.routes(state, step.figure, start, move.to, step.metres)
    between = {tuple(route[1:-1]) for route in routes}
    if len(between) > 1:
        state.step = ChooseRoute(step.figure, start, move.to, step.metres, step.full)
        return
    route = routes[0] if routes else (start, move.to)
    state.step = Obstruct(step.figure, route, step.full)


def _route_label(r: TenkeyBattle, route: tuple[Hex, ...]) -> str:
    return " → ".join(r.label(z) for z in route)


def prompt_route(r: TenkeyBattle, state: GameState, step: ChooseRoute) -> Prompt:
    routes = r.routes(state, step.figure, step.start, step.to, step.metres)
    options = tuple(Option(str(i), f"by {_route_label(r, route)}") for i, route in enumerate(routes))
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  f"{r.name_of(step.figure)}: which way to {r.label(step.to)}?", figure=step.figure, options=options)


def apply_route(r: TenkeyBattle, state: GameState, step: ChooseRoute, choice: Choose, events: list[Event]) -> None:
    routes = r.routes(state, step.figure, step.start, step.to, step.metres)
    state.step = Obstruct(step.figure, routes[int(choice.option)], step.full)


def prompt_obstruct(r: TenkeyBattle, state: GameState, step: Obstruct) -> Prompt:
    pairs = r.obstructions(state, step.figure, step.route)
    name = r.name_of(step.figure)
    options = [Option(f"{fid}@{r.label(z)}", f"{r.name_of(fid)} stops {name} in {r.label(z)}", z, fid)
               for fid, z in pairs]
    options.append(Option("pass", f"let {name} pass"))
    side = state.figures[pairs[0][0]].side if pairs else None
    return Prompt(PromptKind.CHOOSE, side, f"{name} moves {_route_label(r, step.route)}: obstruct?",
                  figure=step.figure, options=tuple(options))


def _arrive(r: TenkeyBattle, state: GameState, step: Obstruct, events: list[Event], stop_at: int | None) -> None:
    route = step.route if stop_at is None else step.route[:stop_at + 1]
    start, end = route[0], route[-1]
    state.put(step.figure, end)
    if end != start:
        events.append(Event("moved", f"{r.name_of(step.figure)} moves {_route_label(r, route)}.", {
            "figure": step.figure, "from": [start.q, start.r], "to": [end.q, end.r],
            "path": [[z.q, z.r] for z in route]}))
    if step.full:
        _done(r, state, step.figure)
    else:
        state.step = ChooseAction(step.figure)


def apply_obstruct(r: TenkeyBattle, state: GameState, step: Obstruct, choice: Choose, events: list[Event]) -> None:
    if choice.option == "pass":
        _arrive(r, state, step, events, None)
        return
    fid, label = choice.option.split("@", 1)
    zone = r.board.from_label(label)
    state.put(fid, zone)
    events.append(Event("obstructed", f"{r.name_of(fid)} stops {r.name_of(step.figure)} in {label}.",
                        {"figure": fid, "mover": step.figure, "zone": [zone.q, zone.r]}))
    _arrive(r, state, step, events, step.route.index(zone))


def settle_obstruct(r: TenkeyBattle, state: GameState, step: Obstruct, events: list[Event]) -> bool:
    if r.obstructions(state, step.figure, step.route):
        return False
    _arrive(r, state, step, events, None)
    return True


# -- attacks and spells -------------------------------------------------------------------------------------
def prompt_action(r: TenkeyBattle, state: GameState, step: ChooseAction) -> Prompt:
    fid = step.figure
    options: list[Option] = []
    for t in r.melee_targets(state, fid):
        options.append(Option(f"melee:{t}", f"attack {r.name_of(t)} in melee", r.zone(state, t), t))
    for t in r.shot_targets(state, fid):
        s = r.shot(state, fid, r.zone(state, t))
        note = " (misfires into the melee area)" if r.misfires(state, fid, t) else ""
        options.append(Option(f"shot:{t}", f"shoot {r.name_of(t)}, {s.range_m} m{note}", s.target, t))
    for t in r.line_targets(state, fid):
        enemy = t if state.figures[t].side != state.figures[fid].side else None  # named for an enemy only
        options.append(Option(f"line:{t}", f"line spell through {r.name_of(t)}", r.zone(state, t), enemy))
    for z in r.area_centres(state, fid):
        options.append(Option(f"area:{r.label(z)}", f"area spell centred on {r.label(z)}", z))
    options.append(Option("none", "do nothing more"))
    return Prompt(PromptKind.CHOOSE, state.figures[fid].side, f"{r.name_of(fid)}: attack or cast?", figure=fid,
                  options=tuple(options))


def apply_action(r: TenkeyBattle, state: GameState, step: ChooseAction, choice: Choose, events: list[Event]) -> None:
    fid = step.figure
    what, _, arg = choice.option.partition(":")
    if what == "none":
        _done(r, state, fid)
    elif what == "melee":
        events.append(Event("attack", f"{r.name_of(fid)} attacks {r.name_of(arg)} in melee.",
                            {"figure": fid, "target": arg}))
        state.step = Outcome(fid, "melee", (arg,))
    elif what == "shot":
        metres = r.shot(state, fid, r.zone(state, arg)).range_m
        events.append(Event("shot", f"{r.name_of(fid)} shoots at {r.name_of(arg)} ({metres} m).",
                            {"figure": fid, "target": arg, "range": metres}))
        state.step = Misfire(fid, arg) if r.misfires(state, fid, arg) else Outcome(fid, "shot", (arg,))
    elif what == "line":
        if r.zone(state, arg) == r.zone(state, fid):
            state.step = LineDirection(fid, arg)
        else:
            _strike(r, state, fid, "line", lines.line(r.board, r.zone(state, fid), r.zone(state, arg)), events)
    else:
        centre = r.board.from_label(arg)
        a = areas.area(r.board, centre, scenario_fields.area_radius(r.spec(fid)))
        if a.gm_rules:
            state.step = AreaRuling(fid, centre)
        elif a.needs_side:
            state.step = AreaSide(fid, centre)
        else:
            _strike(r, state, fid, "area", a.zones, events)


def _strike(r: TenkeyBattle, state: GameState, fid: str, attack: str, covered: tuple[Hex, ...],
            events: list[Event]) -> None:
    caught = r.caught(state, fid, covered)
    shape = "line" if attack == "line" else "area"
    who = f": {', '.join(r.name_of(t) for t in caught)}." if caught else "; nobody is there."
    events.append(Event("cast", f"{possessive(r.name_of(fid))} {shape} spell covers {labels(r.board, covered)}{who}",
                        {"figure": fid, "zones": [[z.q, z.r] for z in covered], "caught": list(caught)}))
    if caught:
        state.step = Outcome(fid, attack, caught)
    else:
        _done(r, state, fid)


def prompt_area_side(r: TenkeyBattle, state: GameState, step: AreaSide) -> Prompt:
    a = areas.area(r.board, step.centre, scenario_fields.area_radius(r.spec(step.figure)))
    options = tuple(Option(r.label(s), f"{labels(r.board, areas.with_side(a, s))}", s) for s in a.sides)
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  f"Radius {a.radius_m:g} m covers two zones side by side: which two?", figure=step.figure,
                  options=options)


def apply_area_side(r: TenkeyBattle, state: GameState, step: AreaSide, choice: Choose, events: list[Event]) -> None:
    a = areas.area(r.board, step.centre, scenario_fields.area_radius(r.spec(step.figure)))
    _strike(r, state, step.figure, "area", areas.with_side(a, r.board.from_label(choice.option)), events)


def _rulings(r: TenkeyBattle, step: AreaRuling) -> list[tuple[str, str, tuple[Hex, ...]]]:
    a = areas.area(r.board, step.centre, scenario_fields.area_radius(r.spec(step.figure)))
    around = areas.around(r.board, step.centre)
    return [("row", f"the zone and its neighbours left and right: {labels(r.board, a.zones)}", a.zones),
            ("around", f"the zone and every zone touching it: {labels(r.board, around)}", around),
            ("all", "every zone of the mat", tuple(r.board))]


def prompt_area_ruling(r: TenkeyBattle, state: GameState, step: AreaRuling) -> Prompt:
    radius = scenario_fields.area_radius(r.spec(step.figure))
    options = tuple(Option(key, text) for key, text, _ in _rulings(r, step))
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side, f"GM: a radius of {radius:g} m is yours to "
                  f"rule. Which zones does it cover around {r.label(step.centre)}?", figure=step.figure,
                  options=options, note="the GM's ruling (the original leaves radii of 7 m and more to the GM)")


def apply_area_ruling(r: TenkeyBattle, state: GameState, step: AreaRuling, choice: Choose,
                      events: list[Event]) -> None:
    zones = next(z for key, _, z in _rulings(r, step) if key == choice.option)
    _strike(r, state, step.figure, "area", zones, events)


def prompt_line_direction(r: TenkeyBattle, state: GameState, step: LineDirection) -> Prompt:
    here = r.zone(state, step.figure)
    options = tuple(Option(d, f"{d}: {labels(r.board, lines.line(r.board, here, here, d))}")
                    for d in lines.DIRECTIONS if len(lines.line(r.board, here, here, d)) > 1)
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  f"{r.name_of(step.target)} shares the caster's zone: which way does the line run?",
                  figure=step.figure, options=options)


def apply_line_direction(r: TenkeyBattle, state: GameState, step: LineDirection, choice: Choose,
                         events: list[Event]) -> None:
    here = r.zone(state, step.figure)
    _strike(r, state, step.figure, "line", lines.line(r.board, here, here, choice.option), events)


def prompt_misfire(r: TenkeyBattle, state: GameState, step: Misfire) -> Prompt:
    zone = r.zone(state, step.aimed)
    options = tuple(Option(f.id, f"it hits {r.name_of(f.id)}", zone, f.id) for f in state.figures_at(zone))
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  f"{r.name_of(step.figure)} shoots into the melee area in {r.label(zone)} without Magic Guidance "
                  "or Precise Shooting: roll the misfire as your game says. Whom does it hit?", figure=step.figure,
                  options=options)


def apply_misfire(r: TenkeyBattle, state: GameState, step: Misfire, choice: Choose, events: list[Event]) -> None:
    if choice.option != step.aimed:
        events.append(Event("misfire", f"The shot misfires and hits {r.name_of(choice.option)}.",
                            {"figure": step.figure, "hit": choice.option}))
    state.step = Outcome(step.figure, "shot", (choice.option,))


SPELLS = ("area", "line")


def prompt_outcome(r: TenkeyBattle, state: GameState, step: Outcome) -> Prompt:
    target = step.targets[0]
    name, tname = r.name_of(step.figure), r.name_of(target)
    if step.attack in SPELLS:
        options = (Option("effect", f"{tname} does not resist"), Option("resisted", f"{tname} resists"))
        text = f"{tname} rolls to resist {possessive(name)} spell: the outcome?"
    else:
        options = (Option("hit", f"{name} hits {tname}"), Option("miss", f"{name} misses {tname}"))
        text = f"{name} attacks {tname}: roll the hit as your game says. The outcome?"
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side, text, figure=step.figure, options=options)


def _next_target(r: TenkeyBattle, state: GameState, fid: str, attack: str, rest: tuple[str, ...]) -> None:
    if rest:
        state.step = Outcome(fid, attack, rest)
    else:
        _done(r, state, fid)


def apply_outcome(r: TenkeyBattle, state: GameState, step: Outcome, choice: Choose, events: list[Event]) -> None:
    target = step.targets[0]
    if choice.option == "miss":
        events.append(Event("missed", f"{r.name_of(step.figure)} misses {r.name_of(target)}.", {"target": target}))
        _next_target(r, state, step.figure, step.attack, step.targets[1:])
        return
    resisted = choice.option == "resisted"
    if step.attack in SPELLS:
        text = f"{r.name_of(target)} {'resists' if resisted else 'does not resist'}."
    else:
        text = f"{r.name_of(step.figure)} hits {r.name_of(target)}."
    events.append(Event("outcome", text, {"figure": step.figure, "target": target, "outcome": choice.option}))
    state.step = Damage(step.figure, step.attack, step.targets, resisted)


def prompt_damage(r: TenkeyBattle, state: GameState, step: Damage) -> Prompt:
    target = step.targets[0]
    left = r.hp_left(state, target)
    tname = r.name_of(target)
    amounts = [left, *range(min(left - 1, MAX_DAMAGE_OPTIONS), -1, -1)]
    options = tuple(Option(str(n), f"{n}: {tname} is down" if n == left else f"{n} hit points") for n in amounts)
    how = " (resisted: as your game says)" if step.resisted else ""
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  f"Roll the damage{how}: how many hit points does {tname} lose? ({left} left)",
                  figure=step.figure, options=options)


def apply_damage(r: TenkeyBattle, state: GameState, step: Damage, choice: Choose, events: list[Event]) -> None:
    from .rules import HP_LOST

    target = step.targets[0]
    lost = int(choice.option)
    hurt = state.figures[target]
    hurt.values[HP_LOST] = int(hurt.values.get(HP_LOST, 0)) + lost
    left = r.hp_left(state, target)
    events.append(Event("damage", f"{r.name_of(target)} loses {lost} hit points ({max(left, 0)} left).",
                        {"target": target, "lost": lost, "left": left}))
    if left <= 0:
        fig = state.figures[target]
        fig.alive = False
        state.pending_removals.append(target)
        events.append(Event("down", f"{r.name_of(target)} is down.", {"figure": target}))
    rest = tuple(t for t in step.targets[1:] if state.figures[t].alive)
    _next_target(r, state, step.figure, step.attack, rest)


STAGES = (
    Stage(Initiative, prompt_initiative, apply_initiative),
    Stage(PickCharacter, prompt_pick, apply_pick, settle_pick),
    Stage(MoveMode, prompt_mode, apply_mode),
    Stage(Walk, prompt_walk, apply_walk),
    Stage(ChooseRoute, prompt_route, apply_route),
    Stage(Obstruct, prompt_obstruct, apply_obstruct, settle_obstruct),
    Stage(ChooseAction, prompt_action, apply_action),
    Stage(AreaSide, prompt_area_side, apply_area_side),
    Stage(AreaRuling, prompt_area_ruling, apply_area_ruling),
    Stage(LineDirection, prompt_line_direction, apply_line_direction),
    Stage(Misfire, prompt_misfire, apply_misfire),
    Stage(Outcome, prompt_outcome, apply_outcome),
    Stage(Damage, prompt_damage, apply_damage),
)
