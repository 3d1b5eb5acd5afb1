"""A Tenkey round as stages: the side with the initiative acts first, one character at a time.

A character moves (normal move, full move, or stays); an enemy it passes may obstruct it; after a
normal move or none it may attack a character in its zone, shoot, cast an area spell or a line, and a
war leader (軍師) may call its war cry (鼓咆) once a turn, still free to act after it (the original does not say
what the call costs; the players follow their game).
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
from engine.i18n import N_, gettext_for, ngettext_for
from engine.prompts import Option, Prompt, PromptKind
from engine.state import GameState
from engine.texts import join_list

from . import areas, lines, scenario_fields, war_cry
from .geometry import labels
from .steps import (
    AreaRuling,
    AreaSide,
    ChooseAction,
    ChooseRoute,
    Damage,
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
HP_LOST = "hp_lost"  # a figure value: the hit points a character has lost
WAR_CRIED = "war_cried"  # turn set: the war leaders who have called their war cry this turn
MAX_DAMAGE_OPTIONS = 60  # hit points offered at once; a bigger blow is entered as "down"

_ = gettext_for(__name__)
_n = ngettext_for(__name__)

# The directions a line may run, as people read them (the keys are the option ids).
DIRECTION_NAMES: dict[str, str] = {
    "up": N_("up"), "down": N_("down"), "left": N_("left"), "right": N_("right"),
    "up-left": N_("up-left"), "up-right": N_("up-right"), "down-left": N_("down-left"), "down-right": N_("down-right"),
}


def _done(r: TenkeyBattle, state: GameState, fid: str) -> None:
    state.add_to_set("acted", fid)
    state.step = PickCharacter()


# -- picking the next character ------------------------------------------------------------------------
def prompt_pick(r: TenkeyBattle, state: GameState, step: PickCharacter) -> Prompt:
    options = [Option(fid, _("{name} in {zone} acts", name=r.name_of(fid), zone=r.label(r.zone(state, fid))),
                      r.zone(state, fid), fid)
               for fid in r.to_act(state)]
    options.append(Option(END_TURN, _("end the turn (the others do nothing)")))
    return Prompt(PromptKind.CHOOSE, r.player_sides(state)[0], _("{side}: who acts next?", side=r.active_name(state)),
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
        Option("normal", _("normal move, up to {metres:g} m, then act", metres=normal)),
        Option("full", _("full move, up to {metres:g} m, and no action", metres=full)),
        Option("stay", _("stay in {zone} and act", zone=r.label(r.zone(state, step.figure)))),
    )
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side, _("{name}: how does {name} move?", name=name),
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
                  _("Move {name} up to {metres:g} m (10 m a row, 3 m a column).", name=name, metres=step.metres),
                  figure=step.figure,
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
    options = tuple(Option(str(i), _("by {route}", route=_route_label(r, route))) for i, route in enumerate(routes))
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  _("{name}: which way to {zone}?", name=r.name_of(step.figure), zone=r.label(step.to)),
                  figure=step.figure, options=options)


def apply_route(r: TenkeyBattle, state: GameState, step: ChooseRoute, choice: Choose, events: list[Event]) -> None:
    routes = r.routes(state, step.figure, step.start, step.to, step.metres)
    state.step = Obstruct(step.figure, routes[int(choice.option)], step.full)


def prompt_obstruct(r: TenkeyBattle, state: GameState, step: Obstruct) -> Prompt:
    pairs = r.obstructions(state, step.figure, step.route)
    name = r.name_of(step.figure)
    options = [Option(f"{fid}@{r.label(z)}", _("{who} stops {name} in {zone}", who=r.name_of(fid), name=name,
                                                zone=r.label(z)), z, fid)
               for fid, z in pairs]
    options.append(Option("pass", _("let {name} pass", name=name)))
    side = state.figures[pairs[0][0]].side if pairs else None
    return Prompt(PromptKind.CHOOSE, side, _("{name} moves {route}: obstruct?", name=name,
                                             route=_route_label(r, step.route)),
                  figure=step.figure, options=tuple(options))


def _arrive(r: TenkeyBattle, state: GameState, step: Obstruct, events: list[Event], stop_at: int | None) -> None:
    route = step.route if stop_at is None else step.route[:stop_at + 1]
    start, end = route[0], route[-1]
    state.put(step.figure, end)
    if end != start:
        text = _("{name} moves {route}.", name=r.name_of(step.figure), route=_route_label(r, route))
        events.append(Event("moved", text, {
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
    text = _("{who} stops {name} in {zone}.", who=r.name_of(fid), name=r.name_of(step.figure), zone=label)
    events.append(Event("obstructed", text,
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
        options.append(Option(f"melee:{t}", _("attack {name} in melee", name=r.name_of(t)), r.zone(state, t), t))
    for t in r.shot_targets(state, fid):
        s = r.shot(state, fid, r.zone(state, t))
        text = (_("shoot {name}, {range} m (misfires into the melee area)", name=r.name_of(t), range=s.range_m)
                if r.misfires(state, fid, t) else _("shoot {name}, {range} m", name=r.name_of(t), range=s.range_m))
        options.append(Option(f"shot:{t}", text, s.target, t))
    for t in r.line_targets(state, fid):
        enemy = t if state.figures[t].side != state.figures[fid].side else None  # named for an enemy only
        options.append(Option(f"line:{t}", _("line spell through {name}", name=r.name_of(t)), r.zone(state, t), enemy))
    for z in r.area_centres(state, fid):
        options.append(Option(f"area:{r.label(z)}", _("area spell centred on {zone}", zone=r.label(z)), z))
    cry = r.war_cry(state, fid)
    if cry is not None:
        said = {"radius": cry.radius_m, "zones": labels(r.board, cry.zones)}
        text = (_("war cry (鼓咆), radius {radius:g} m: {zones} (the GM may rule one more zone)", **said)
                if cry.gm_rules else _("war cry (鼓咆), radius {radius:g} m: {zones}", **said))
        options.append(Option("war_cry", text, cry.centre))
    options.append(Option("none", _("do nothing more")))
    return Prompt(PromptKind.CHOOSE, state.figures[fid].side, _("{name}: attack or cast?", name=r.name_of(fid)),
                  figure=fid,
                  options=tuple(options))


def apply_action(r: TenkeyBattle, state: GameState, step: ChooseAction, choice: Choose, events: list[Event]) -> None:
    fid = step.figure
    what, _sep, arg = choice.option.partition(":")
    if what == "none":
        _done(r, state, fid)
    elif what == "melee":
        events.append(Event("attack", _("{name} attacks {target} in melee.", name=r.name_of(fid),
                                        target=r.name_of(arg)),
                            {"figure": fid, "target": arg}))
        state.step = Outcome(fid, "melee", (arg,))
    elif what == "shot":
        metres = r.shot(state, fid, r.zone(state, arg)).range_m
        events.append(Event("shot", _("{name} shoots at {target} ({range} m).", name=r.name_of(fid),
                                      target=r.name_of(arg), range=metres),
                            {"figure": fid, "target": arg, "range": metres}))
        state.step = Misfire(fid, arg) if r.misfires(state, fid, arg) else Outcome(fid, "shot", (arg,))
    elif what == "war_cry":
        cry = r.war_cry(state, fid)
        assert cry is not None, "offered only to a war leader who has not called this turn"
        if cry.gm_rules:
            state.step = AreaRuling(fid, cry.centre, "war_cry")
        else:
            _call(r, state, fid, cry.zones, events)
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
    owner, zones, who = possessive(r.name_of(fid)), labels(r.board, covered), join_list(r.name_of(t) for t in caught)
    if attack == "line":
        text = (_("{owner} line spell covers {zones}: {caught}.", owner=owner, zones=zones, caught=who) if caught
                else _("{owner} line spell covers {zones}; nobody is there.", owner=owner, zones=zones))
    else:
        text = (_("{owner} area spell covers {zones}: {caught}.", owner=owner, zones=zones, caught=who) if caught
                else _("{owner} area spell covers {zones}; nobody is there.", owner=owner, zones=zones))
    events.append(Event("cast", text,
                        {"figure": fid, "zones": [[z.q, z.r] for z in covered], "caught": list(caught)}))
    if caught:
        state.step = Outcome(fid, attack, caught)
    else:
        _done(r, state, fid)


def _call(r: TenkeyBattle, state: GameState, fid: str, zones: tuple[Hex, ...], events: list[Event]) -> None:
    """The war cry reaches ``zones``: the war leader's side there hears it; the character may still act."""
    heard = r.hearing(state, fid, zones)
    owner, where = possessive(r.name_of(fid)), labels(r.board, zones)
    text = (_("{owner} war cry (鼓咆) reaches {zones}: {heard}. Apply its effect as your game says.", owner=owner,
              zones=where, heard=join_list(r.name_of(h) for h in heard)) if heard
            else _("{owner} war cry (鼓咆) reaches {zones}; none of its side is there.", owner=owner, zones=where))
    events.append(Event("war_cry", text, {"figure": fid, "zones": [[z.q, z.r] for z in zones], "heard": list(heard)}))
    state.add_to_set(WAR_CRIED, fid)
    state.step = ChooseAction(fid)


def prompt_area_side(r: TenkeyBattle, state: GameState, step: AreaSide) -> Prompt:
    a = areas.area(r.board, step.centre, scenario_fields.area_radius(r.spec(step.figure)))
    options = tuple(Option(r.label(s), f"{labels(r.board, areas.with_side(a, s))}", s) for s in a.sides)
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  _("Radius {radius:g} m covers two zones side by side: which two?", radius=a.radius_m),
                  figure=step.figure,
                  options=options)


def apply_area_side(r: TenkeyBattle, state: GameState, step: AreaSide, choice: Choose, events: list[Event]) -> None:
    a = areas.area(r.board, step.centre, scenario_fields.area_radius(r.spec(step.figure)))
    _strike(r, state, step.figure, "area", areas.with_side(a, r.board.from_label(choice.option)), events)


def _rulings(r: TenkeyBattle, step: AreaRuling) -> list[tuple[str, str, tuple[Hex, ...]]]:
    """The GM's choices, the default first: (option id, words, zones)."""
    if step.effect == "war_cry":
        cry = war_cry.war_cry(r.board, step.centre, scenario_fields.war_cry_radius(r.spec(step.figure)))
        return [("around", _("the war leader's zone and every zone touching it: {zones}",
                             zones=labels(r.board, cry.zones)), cry.zones),
                *((f"more:{r.label(z)}", _("those and {zone}: {zones}", zone=r.label(z), zones=labels(r.board, zones)),
                   zones) for z, zones in war_cry.one_more(r.board, cry)),
                ("all", _("every zone of the mat (the original's recommendation for a war leader)"), tuple(r.board))]
    a = areas.area(r.board, step.centre, scenario_fields.area_radius(r.spec(step.figure)))
    around = areas.around(r.board, step.centre)
    return [("row", _("the zone and its neighbours left and right: {zones}", zones=labels(r.board, a.zones)), a.zones),
            ("around", _("the zone and every zone touching it: {zones}", zones=labels(r.board, around)), around),
            ("all", _("every zone of the mat"), tuple(r.board))]


def prompt_area_ruling(r: TenkeyBattle, state: GameState, step: AreaRuling) -> Prompt:
    options = tuple(Option(key, text) for key, text, _ in _rulings(r, step))
    if step.effect == "war_cry":
        radius = scenario_fields.war_cry_radius(r.spec(step.figure))
        return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                      _("{name}'s war cry (鼓咆) of {radius:g} m reaches the zones touching {zone} and one more: "
                        "which zones?", name=r.name_of(step.figure), radius=radius, zone=r.label(step.centre)),
                      figure=step.figure, options=options, gm=True,
                      note=_("the GM's ruling (the original: 15 m reaches the adjacent zones and one more zone)"))
    radius = scenario_fields.area_radius(r.spec(step.figure))
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  _("A radius of {radius:g} m: which zones does it cover around {zone}?",
                    radius=radius, zone=r.label(step.centre)), figure=step.figure,
                  options=options, note=_("the GM's ruling (the original leaves radii of 7 m and more to the GM)"),
                  gm=True)


def apply_area_ruling(r: TenkeyBattle, state: GameState, step: AreaRuling, choice: Choose,
                      events: list[Event]) -> None:
    zones = next(z for key, _, z in _rulings(r, step) if key == choice.option)
    if step.effect == "war_cry":
        _call(r, state, step.figure, zones, events)
    else:
        _strike(r, state, step.figure, "area", zones, events)


def prompt_line_direction(r: TenkeyBattle, state: GameState, step: LineDirection) -> Prompt:
    here = r.zone(state, step.figure)
    options = tuple(Option(d, _("{direction}: {zones}", direction=_(DIRECTION_NAMES[d]),
                                zones=labels(r.board, lines.line(r.board, here, here, d))))
                    for d in lines.DIRECTIONS if len(lines.line(r.board, here, here, d)) > 1)
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  _("{name} shares the caster's zone: which way does the line run?", name=r.name_of(step.target)),
                  figure=step.figure, options=options)


def apply_line_direction(r: TenkeyBattle, state: GameState, step: LineDirection, choice: Choose,
                         events: list[Event]) -> None:
    here = r.zone(state, step.figure)
    _strike(r, state, step.figure, "line", lines.line(r.board, here, here, choice.option), events)


def prompt_misfire(r: TenkeyBattle, state: GameState, step: Misfire) -> Prompt:
    zone = r.zone(state, step.aimed)
    options = tuple(Option(f.id, _("it hits {name}", name=r.name_of(f.id)), zone, f.id) for f in state.figures_at(zone))
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side,
                  _("{name} shoots into the melee area in {zone} without Magic Guidance or Precise Shooting: roll the "
                    "misfire as your game says. Whom does it hit?", name=r.name_of(step.figure), zone=r.label(zone)),
                  figure=step.figure,
                  options=options)


def apply_misfire(r: TenkeyBattle, state: GameState, step: Misfire, choice: Choose, events: list[Event]) -> None:
    if choice.option != step.aimed:
        events.append(Event("misfire", _("The shot misfires and hits {name}.", name=r.name_of(choice.option)),
                            {"figure": step.figure, "hit": choice.option}))
    state.step = Outcome(step.figure, "shot", (choice.option,))


SPELLS = ("area", "line")


def prompt_outcome(r: TenkeyBattle, state: GameState, step: Outcome) -> Prompt:
    target = step.targets[0]
    name, tname = r.name_of(step.figure), r.name_of(target)
    if step.attack in SPELLS:
        options = (Option("effect", _("{target} does not resist", target=tname)),
                   Option("resisted", _("{target} resists", target=tname)))
        text = _("{target} rolls to resist {owner} spell: the outcome?", target=tname, owner=possessive(name))
    else:
        options = (Option("hit", _("{name} hits {target}", name=name, target=tname)),
                   Option("miss", _("{name} misses {target}", name=name, target=tname)))
        text = _("{name} attacks {target}: roll the hit as your game says. The outcome?", name=name, target=tname)
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side, text, figure=step.figure, options=options)


def _next_target(r: TenkeyBattle, state: GameState, fid: str, attack: str, rest: tuple[str, ...]) -> None:
    if rest:
        state.step = Outcome(fid, attack, rest)
    else:
        _done(r, state, fid)


def apply_outcome(r: TenkeyBattle, state: GameState, step: Outcome, choice: Choose, events: list[Event]) -> None:
    target = step.targets[0]
    if choice.option == "miss":
        events.append(Event("missed", _("{name} misses {target}.", name=r.name_of(step.figure),
                                        target=r.name_of(target)),
                            {"target": target}))
        _next_target(r, state, step.figure, step.attack, step.targets[1:])
        return
    resisted = choice.option == "resisted"
    if step.attack in SPELLS:
        text = (_("{target} resists.", target=r.name_of(target)) if resisted
                else _("{target} does not resist.", target=r.name_of(target)))
    else:
        text = _("{name} hits {target}.", name=r.name_of(step.figure), target=r.name_of(target))
    events.append(Event("outcome", text, {"figure": step.figure, "target": target, "outcome": choice.option}))
    state.step = Damage(step.figure, step.attack, step.targets, resisted)


def prompt_damage(r: TenkeyBattle, state: GameState, step: Damage) -> Prompt:
    target = step.targets[0]
    left = r.hp_left(state, target)
    tname = r.name_of(target)
    amounts = [left, *range(min(left - 1, MAX_DAMAGE_OPTIONS), -1, -1)]
    options = tuple(Option(str(n), _("{n}: {name} is down", n=n, name=tname) if n == left
                           else _n("{n} hit point", "{n} hit points", n)) for n in amounts)
    text = (_("Roll the damage (resisted: as your game says): how many hit points does {name} lose? ({left} left)",
              name=tname, left=left) if step.resisted
            else _("Roll the damage: how many hit points does {name} lose? ({left} left)", name=tname, left=left))
    return Prompt(PromptKind.CHOOSE, state.figures[step.figure].side, text,
                  figure=step.figure, options=options)


def apply_damage(r: TenkeyBattle, state: GameState, step: Damage, choice: Choose, events: list[Event]) -> None:
    target = step.targets[0]
    lost = int(choice.option)
    hurt = state.figures[target]
    hurt.values[HP_LOST] = int(hurt.values.get(HP_LOST, 0)) + lost
    left = r.hp_left(state, target)
    text = _n("{name} loses {n} hit point ({left} left).", "{name} loses {n} hit points ({left} left).", lost,
              name=r.name_of(target), left=max(left, 0))
    events.append(Event("damage", text,
                        {"target": target, "lost": lost, "left": left}))
    if left <= 0:
        state.kill(target)
        events.append(Event("down", _("{name} is down.", name=r.name_of(target)), {"figure": target}))
    rest = tuple(t for t in step.targets[1:] if state.figures[t].alive)
    _next_target(r, state, step.figure, step.attack, rest)


STAGES = (
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
