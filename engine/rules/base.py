"""The interface every rule set implements (python-chess variants and OpenSpiel games inspired it).

A rule set is bound to one scenario. The game state is plain data; ``apply`` changes it in place
and returns events — :class:`engine.game.Game` applies it to a copy so a refused action leaves the
game untouched. Dice are prompts answered by actions; a rule never rolls a die itself.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action
from engine.board import Board, Cell, EdgeKindSpec, TerrainKind, edge_kinds, terrain_kinds
from engine.events import Event
from engine.i18n import gettext_for
from engine.overlays import Overlay, reach_overlay
from engine.pathfinding import Reach
from engine.prompts import Prompt
from engine.rules.content import MOVES_QUERY, GlossaryTerm, QueryInput, QueryKind
from engine.rules.gm import Calculator, RulingKind
from engine.scenario_schema import Field, Table, type_name
from engine.targets import TargetInfo as TargetInfo
from engine.texts import declared_text

if TYPE_CHECKING:
    from engine.scenario_types import FigureSpec, Scenario, VictorySpec
    from engine.state import GameState

_ = gettext_for(__name__)

SCENARIO_FOLDER = "scenarios"  # a rule set's bundled scenarios: this folder of its package


@dataclass(frozen=True)
class VictoryType:
    """A way to win a rule set offers: its ``type`` word, its own [[victory]] keys, and a line for people."""

    name: str
    help: str
    fields: tuple[Field, ...] = ()
    default_text: str = ""  # the text when a scenario gives none ("destroy every enemy figure")


@dataclass(frozen=True)
class MapSymbol:
    """A symbol of a rule set's map drawings: the terrain kind it draws (its name) and the token lying there."""

    terrain: str
    token: str | None = None
    help: str = ""


@dataclass(frozen=True)
class OptionSpec:
    """A scenario option a rule set understands: its type, default and meaning."""

    name: str
    type: type
    default: Any
    help: str


class RuleSet(ABC):
    """A rule set. Besides its moves it declares what its scenarios may hold beyond the core's tables."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    # -- what its scenario files hold (read through one mechanism, engine.scenario_schema) ------------
    board_kinds: ClassVar[tuple[str, ...]] = ("hex",)  # the [map] kinds it plays on
    levels: ClassVar[bool] = False  # whether it reads height levels (a [map] levels layer)
    figure_fields: ClassVar[tuple[Field, ...]] = ()  # its own [[figures]] keys (character sheets, unit values)
    victory_types: ClassVar[tuple[VictoryType, ...]] = ()  # its [[victory]] types and their keys
    default_victory: ClassVar[str | None] = None  # with no [[victory]], every side wins by this type
    # Its own terrain kinds beyond the shared floor, blocking, low and water (engine.board.terrain).
    terrain_kinds: ClassVar[tuple[TerrainKind, ...]] = ()
    map_symbols: ClassVar[Mapping[str, MapSymbol]] = {}  # its drawing symbols beyond . # o ~ -, by kind name
    # Its own edge kinds beyond the shared wall, door and locked door (engine.board.edges); a scenario's
    # [map] edges = { kind = ["C3|C4"] } places them.
    edge_kinds: ClassVar[tuple[EdgeKindSpec, ...]] = ()
    tables: ClassVar[tuple[Table, ...]] = ()  # its own tables of a scenario file
    one_figure_per_cell: ClassVar[bool] = True  # False: figures may start stacked (Laramie, zone boards)
    uses_facing: ClassVar[bool] = False  # True: figures face a direction, turned by ``face`` actions at any time
    # -- what the tablets show besides the prompts (engine.rules.content; sent in the scenario message) -----
    # What a tap on a figure asks, each answered by query(); every rule set can say where a figure may go.
    queries: ClassVar[tuple[QueryKind, ...]] = (MOVES_QUERY,)
    phase_names: ClassVar[Mapping[str, str]] = {}  # its phases as the header names them ("ranged": "Ranged phase")
    # -- what a game master may do (engine.rules.gm): rulings it reads from the state, calculators it offers ----
    ruling_kinds: ClassVar[tuple[RulingKind, ...]] = ()
    # True when its rules read terrain through engine.board.marks.board_in_play, so a GM may mark cells in play
    terrain_marks: ClassVar[bool] = False
    calculators: ClassVar[tuple[Calculator, ...]] = ()

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario

    @classmethod
    def validate_options(cls, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Check a scenario's [options] against the declared ones; fill in defaults."""
        known = {o.name: o for o in cls.options}
        out = {o.name: o.default for o in cls.options}
        for key, value in raw.items():
            spec = known.get(key)
            if spec is None:
                raise ValueError(_("option {key!r} is not an option of {title}; known options: {known}", key=key,
                                   title=declared_text(cls, cls.title), known=sorted(known)))
            if spec.type is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, spec.type) or (spec.type is int and isinstance(value, bool)):
                raise ValueError(_("option {key!r} must be {kind} ({help}), not {value!r}", key=key,
                                   kind=type_name(spec.type), help=declared_text(cls, spec.help), value=value))
            out[key] = value
        return out

    @classmethod
    def terrain_table(cls) -> dict[str, TerrainKind]:
        """Every terrain kind its maps may hold, by name: the shared ones and its own.

        Raises ValueError (a mistake of the rule set, not of a scenario) when a kind repeats a name or a
        map symbol draws a kind it does not declare.
        """
        kinds = terrain_kinds(cls.terrain_kinds)
        for ch, symbol in cls.map_symbols.items():
            if symbol.terrain not in kinds:
                raise ValueError(f"{cls.title}: map symbol {ch!r} draws terrain {symbol.terrain!r}, which is not a "
                                 f"declared terrain kind ({', '.join(kinds)}); declare it in terrain_kinds")
        return kinds

    @classmethod
    def edge_table(cls) -> dict[str, EdgeKindSpec]:
        """Every edge kind its maps may hold, by name: the shared ones and its own (ValueError when a name repeats)."""
        return edge_kinds(cls.edge_kinds)

    @classmethod
    def package(cls) -> str:
        """The package the rule set lives in (its folder): where its scenarios, glossary and catalogue are."""
        module = sys.modules.get(cls.__module__)
        return (module.__package__ if module is not None else None) or cls.__module__

    @classmethod
    def scenarios(cls) -> dict[str, str]:
        """The scenarios its folder bundles, ``scenarios/*.toml`` beside its modules: id (the file's name) → TOML
        text. Read through importlib.resources, so they are found in an installed wheel as in a folder."""
        try:
            folder = resources.files(cls.package()) / SCENARIO_FOLDER
        except (ModuleNotFoundError, TypeError):
            return {}
        if not folder.is_dir():
            return {}
        return {item.name.removesuffix(".toml"): item.read_text(encoding="utf-8")
                for item in sorted(folder.iterdir(), key=lambda i: i.name) if item.name.endswith(".toml")}

    @classmethod
    def check_figure_spec(cls, figure: FigureSpec, board: Board) -> None:
        """Refuse a figure this rule set cannot place (raise :class:`engine.scenario_schema.FieldError`)."""
        return None

    @classmethod
    def check_victory_spec(cls, victory: VictorySpec, board: Board) -> None:
        """Refuse a victory condition that cannot be met (raise :class:`engine.scenario_schema.FieldError`)."""
        return None

    @classmethod
    def check_scenario(cls, scenario: Scenario) -> None:
        """Refuse a scenario this rule set cannot play (raise ValueError with the fix)."""
        return None

    @abstractmethod
    def new_state(self) -> GameState: ...

    @abstractmethod
    def prompt(self, state: GameState) -> Prompt: ...

    @abstractmethod
    def apply(self, state: GameState, action: Action) -> list[Event]: ...

    @abstractmethod
    def reachable(self, state: GameState, figure: str) -> Mapping[Cell, Reach]: ...

    def reachable_reference(self, state: GameState, figure: str) -> Mapping[Cell, Reach] | None:
        """``reachable`` through the general search (``engine.pathfinding``) and the rules' own step cost: what a
        fast form must match, compared by the tests and the benchmarks. None: ``reachable`` is that search."""
        return None

    def targets(self, state: GameState, figure: str) -> list[TargetInfo]:
        """What the figure could shoot or cast at (none by default: a rule set without ranged attacks)."""
        return []

    def threatened(self, state: GameState, side: str) -> set[Cell]:
        """Hexes where a figure of ``side`` would come under threat (none by default: no contact rules)."""
        return set()

    @abstractmethod
    def why_not(self, state: GameState, figure: str, to: Cell) -> str:
        """Plain words for why ``figure`` may not end its move on ``to`` (shown when a hand move is refused)."""

    def why_refused(self, state: GameState, option: str) -> str:
        """Why a choice the current prompt does not offer is refused now ("" when the rule set does not say): a
        target out of range, too few points, … The refusal of an unoffered option names it beside the options."""
        return ""

    def goals(self, state: GameState, figure: str) -> list[Cell]:
        """Hexes the figure should head for, for the auto player: by default the enemies' hexes.

        A rule set with other aims (a token to carry out, a place to hold) offers them here.
        """
        me = state.figures[figure]
        return [f.hex for f in state.alive() if f.side != me.side and f.hex is not None]

    def badges(self, state: GameState, figure: str) -> tuple[str, ...]:
        """Short texts the tablets show on a figure in play (its unit state, "prone"); none by default."""
        return ()

    def points(self) -> dict[str, int]:
        """Each side's total points (empty when the rule set has no points: the tablets then show none)."""
        return {}

    @classmethod
    def word(cls, text: str) -> str:
        """One of the rule set's own words (a field's name, a kind, an ability, an item) in the table's language.

        Looked up in its catalogue (marked with ``N_``); a rule set whose words live in its data overrides this.
        """
        return declared_text(cls, text)

    def item_name(self, item: str) -> str:
        """A thing a figure carries (``FigureState.carrying``: a token, a weapon) as people read it."""
        return self.word(item)

    @classmethod
    def glossary(cls) -> tuple[GlossaryTerm, ...]:
        """Its terms and their rule texts, shown on a long press (``engine.rules.content.load_glossary``)."""
        return ()

    def query(self, state: GameState, kind: str, subject: str) -> Overlay:
        """Answer one of the declared ``queries`` about ``subject`` (a figure id or a side id, as the kind says,
        checked by the caller) as an overlay the tablets draw without knowing the rule set."""
        if kind == MOVES_QUERY.name:
            return reach_overlay(kind, self.reachable(state, subject), self.scenario.board.kind)
        raise LookupError(f"{self.title} declares no query {kind!r}")

    def query_with(self, state: GameState, kind: str, subject: str, given: QueryInput) -> Overlay:
        """Answer a query that ``takes`` a chosen cell or a size (``given``); by default the plain :meth:`query`."""
        return self.query(state, kind, subject)
