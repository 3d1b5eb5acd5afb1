"""What the table must do next, in words the tablet can show as-is, with the odds of each outcome.

One builder per pending step of the Fantasy Battle flow (see rules.py); they read the state and
never change it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.hexes import Hex
from engine.lines import Sight
from engine.prompts import Chance, DieRequest, Option, Outcome, Prompt, PromptKind
from engine.rules.fantasy_battle import melee
from engine.rules.fantasy_battle.constants import MOVE_LONG, MOVE_SHORT, SHOT_HITS_AT, UNLOCK_AT, span
from engine.state import GameState

if TYPE_CHECKING:
    from engine.rules.fantasy_battle.rules import FantasyBattle


def _hex(v: list[int]) -> Hex:
    return Hex(v[0], v[1])


class FBPrompter:
    def __init__(self, rules: FantasyBattle) -> None:
        self.r = rules

    def prompt(self, state: GameState) -> Prompt:
        if state.pending_removals:
            fid = state.pending_removals[0]
            fig = state.figures[fid]
            where = f" from {self.r.label(fig.hex)}" if fig.hex is not None else ""
            return Prompt(PromptKind.REMOVE, fig.side, f"Take {self.r.fname(fid)} off the table{where}.", figure=fid)
        kind = state.step["kind"]
        handler = getattr(self, f"_prompt_{kind}")
        result: Prompt = handler(state, state.step)
        return result

    def _at(self, state: GameState, fid: str) -> str:
        """The figure's hex label: tells apart two figures of the same name."""
        h = state.figures[fid].hex
        return self.r.label(h) if h is not None else "off the table"

    def _die(self, side: str, purpose: str, figure: str | None = None) -> DieRequest:
        return DieRequest(side, 6, purpose, figure)

    def _prompt_over(self, state: GameState, step: dict[str, Any]) -> Prompt:
        return Prompt(PromptKind.GAME_OVER, state.winner, step["text"])

    def _prompt_order(self, state: GameState, step: dict[str, Any]) -> Prompt:
        group = next(g for g in step["groups"] if len(g) > 1)
        players = [self.r.scenario.players[i] for i in group]
        dice = tuple(self._die(p.sides[0], "turn order") for p in players)
        if len(group) == len(self.r.scenario.players) and not step.get("tied"):
            text = "Each player rolls 1d6 for the turn order: highest goes first."
        else:
            text = f"Tie for the turn order: {', '.join(p.name for p in players)} roll 1d6 again."
        return Prompt(
            PromptKind.ROLL,
            dice[0].roller,
            text,
            dice=dice,
            outcomes=tuple((Outcome(1, 6, "higher goes earlier"),) for _ in dice),
        )

    def _prompt_ranged(self, state: GameState, step: dict[str, Any]) -> Prompt:
        options = []
        for shooter, info in self.r.ranged_options(state):
            verb = "shoots at" if info.action == "shoot" else "casts at"
            sight = "clear" if info.sight is Sight.CLEAR else "unclear line: roll-off first"
            target = state.figures[info.target]
            options.append(
                Option(
                    f"{shooter}>{info.target}",
                    f"{self.r.fname(shooter)} {verb} {self.r.fname(info.target)} at {self._at(state, info.target)} "
                    f"(range {info.range}, {sight})",
                    target.hex,
                    info.target,
                )
            )
        options.append(Option("done", "Finish shooting and casting"))
        side = self.r.player_sides(state)[0]
        return Prompt(
            PromptKind.CHOOSE,
            side,
            f"{self.r.active_side_name(state)}: ranged phase — choose who shoots or casts, or finish.",
            options=tuple(options),
        )

    def _prompt_rolloff(self, state: GameState, step: dict[str, Any]) -> Prompt:
        shooter, target = state.figures[step["shooter"]], state.figures[step["target"]]
        dice = (
            self._die(shooter.side, "roll-off for an unclear line", shooter.id),
            self._die(target.side, "roll-off for an unclear line", target.id),
        )
        return Prompt(
            PromptKind.ROLL,
            shooter.side,
            f"Unclear line: {self.r.sname(shooter.side)} rolls 1d6 for {self.r.fname(shooter.id)}, "
            f"{self.r.sname(target.side)} rolls 1d6 for {self.r.fname(target.id)}. "
            f"{self.r.fname(shooter.id)} may {'shoot' if step['act'] == 'shoot' else 'cast'} only by rolling higher; "
            "a failed roll-off still spends the action.",
            figure=shooter.id,
            dice=dice,
            outcomes=(
                (Outcome(1, 6, "must be higher than the target's die"),),
                (Outcome(1, 6, "a tie stops the shot"),),
            ),
            chances=(Chance("the shot may go ahead", 15 / 36), Chance("no shot, action spent", 21 / 36)),
            note=step.get("why", ""),
        )

    def _prompt_shot_hit(self, state: GameState, step: dict[str, Any]) -> Prompt:
        shooter = state.figures[step["shooter"]]
        p = (7 - SHOT_HITS_AT) / 6
        return Prompt(
            PromptKind.ROLL,
            shooter.side,
            f"{self.r.sname(shooter.side)}: roll 1d6 for {self.r.fname(shooter.id)} shooting at "
            f"{self.r.fname(step['target'])} — {SHOT_HITS_AT}–6 hits, 1–{SHOT_HITS_AT - 1} misses.",
            figure=shooter.id,
            dice=(self._die(shooter.side, "shot", shooter.id),),
            outcomes=((Outcome(1, SHOT_HITS_AT - 1, "miss"), Outcome(SHOT_HITS_AT, 6, "hit")),),
            chances=(Chance("hit", p), Chance("miss", 1 - p)),
        )

    def _prompt_shot_save(self, state: GameState, step: dict[str, Any]) -> Prompt:
        target = state.figures[step["target"]]
        at = self.r.save_at(target.id)
        p = (7 - at) / 6
        return Prompt(
            PromptKind.ROLL,
            target.side,
            f"{self.r.sname(target.side)}: {self.r.fname(target.id)} is hit — roll 1d6: {span(at, 6)} shrugs it off, "
            f"{span(1, at - 1)} dies.",
            figure=target.id,
            dice=(self._die(target.side, "save against a hit", target.id),),
            outcomes=((Outcome(1, at - 1, "dies"), Outcome(at, 6, "shrugs off the hit")),),
            chances=(Chance("survives", p), Chance("dies", 1 - p)),
        )

    def _prompt_magic(self, state: GameState, step: dict[str, Any]) -> Prompt:
        wizard = state.figures[step["wizard"]]
        return Prompt(
            PromptKind.ROLL,
            wizard.side,
            f"{self.r.sname(wizard.side)}: roll 1d6 for {self.r.fname(wizard.id)}'s spell at "
            f"{self.r.fname(step['target'])} "
            f"— 6 kills, anything else fails.",
            figure=wizard.id,
            dice=(self._die(wizard.side, "attack magic", wizard.id),),
            outcomes=((Outcome(1, 5, "the spell fails"), Outcome(6, 6, "the target dies")),),
            chances=(Chance("the target dies", 1 / 6), Chance("the spell fails", 5 / 6)),
        )

    def _prompt_forced_pick(self, state: GameState, step: dict[str, Any]) -> Prompt:
        opts = tuple(
            Option(fid, f"{self.r.fname(fid)} ({self._at(state, fid)}) fights", state.figures[fid].hex, fid)
            for fid in self.r.pending_forced(state)
        )
        return Prompt(
            PromptKind.CHOOSE,
            self.r.player_sides(state)[0],
            f"{self.r.active_side_name(state)}: these figures began the turn next to an enemy and must fight. "
            "Choose who fights first.",
            options=opts,
        )

    def _prompt_pick_enemy(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        enemies = self.r.terrain(state).contact_enemies(fig)
        opts = tuple(
            Option(e.id, f"fight {self.r.fname(e.id)} ({self._at(state, e.id)})", e.hex, e.id) for e in enemies
        )
        return Prompt(
            PromptKind.CHOOSE,
            fig.side,
            f"{self.r.sname(fig.side)}: {self.r.fname(fig.id)} is next to several enemies — "
            "choose which one it fights.",
            figure=fig.id,
            options=opts,
        )

    def _prompt_melee(self, state: GameState, step: dict[str, Any]) -> Prompt:
        a, d = state.figures[step["attacker"]], state.figures[step["defender"]]
        a_at, d_at = self.r.kill_numbers(a.id, d.id)
        an, dn = self.r.fname(a.id), self.r.fname(d.id)
        return Prompt(
            PromptKind.ROLL,
            a.side,
            f"Combat: {self.r.sname(a.side)} rolls 1d6 for {an}, {self.r.sname(d.side)} rolls 1d6 for {dn}. "
            f"Higher wins; equal dice roll again; {an} kills on {span(a_at, 6)}, {dn} kills on {span(d_at, 6)}.",
            figure=a.id,
            dice=(self._die(a.side, "combat (attacker)", a.id), self._die(d.side, "combat (defender)", d.id)),
            outcomes=(
                (Outcome(a_at, 6, f"kills {dn} unless {dn}'s die is equal or higher"),),
                (Outcome(d_at, 6, f"kills {an} unless {an}'s die is equal or higher"),),
            ),
            chances=melee.melee_chances(an, dn, a_at, d_at),
            note=step.get("note", ""),
        )

    def _prompt_retreat(self, state: GameState, step: dict[str, Any]) -> Prompt:
        loser = state.figures[step["loser"]]
        opts = tuple(
            Option(self.r.label(_hex(h)), f"fall back to {self.r.label(_hex(h))}", _hex(h)) for h in step["options"]
        )
        return Prompt(
            PromptKind.CHOOSE,
            loser.side,
            f"{self.r.sname(loser.side)}: {self.r.fname(loser.id)} lost and must fall back one hex — choose where.",
            figure=loser.id,
            options=opts,
        )

    def _prompt_advance(self, state: GameState, step: dict[str, Any]) -> Prompt:
        winner = state.figures[step["winner"]]
        to = _hex(step["to"])
        return Prompt(
            PromptKind.CHOOSE,
            winner.side,
            f"{self.r.sname(winner.side)}: {self.r.fname(winner.id)} won — advance into {self.r.label(to)} or stay?",
            figure=winner.id,
            options=(Option("advance", f"advance to {self.r.label(to)}", to), Option("stay", "stay")),
        )

    def _prompt_decisive(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fav, oth = state.figures[step["favoured"]], state.figures[step["other"]]
        fn, on = self.r.fname(fav.id), self.r.fname(oth.id)
        return Prompt(
            PromptKind.ROLL,
            fav.side,
            f"Decisive battle: {on} cannot fall back because a friend is in the way. {self.r.sname(fav.side)} rolls "
            f"1d6 for {fn} (wins on {melee.FAVOURED_WINS_AT}–6), {self.r.sname(oth.side)} rolls 1d6 for {on} "
            f"(wins on 6). If both or neither win, roll again. The loser dies.",
            figure=fav.id,
            dice=(
                self._die(fav.side, "decisive battle (favoured)", fav.id),
                self._die(oth.side, "decisive battle", oth.id),
            ),
            outcomes=((Outcome(melee.FAVOURED_WINS_AT, 6, f"{fn} wins"),), (Outcome(6, 6, f"{on} wins"),)),
            chances=melee.decisive_chances(fn, on),
            note=step.get("note", ""),
        )

    def _prompt_select(self, state: GameState, step: dict[str, Any]) -> Prompt:
        opts = [
            Option(fid, f"move {self.r.fname(fid)} ({self._at(state, fid)})", state.figures[fid].hex, fid)
            for fid in self.r.selectable(state)
        ]
        opts.append(Option("end", "End the turn (the others stay where they are)"))
        return Prompt(
            PromptKind.CHOOSE,
            self.r.player_sides(state)[0],
            f"{self.r.active_side_name(state)}: choose the next figure to move, or end the turn.",
            options=tuple(opts),
        )

    def _prompt_door(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        opts = []
        for e in self.r.closed_doors(state, fig):
            lab = self.r.board.edge_label(e)
            if state.doors[e] == "locked":
                opts.append(Option(f"unlock:{lab}", f"try the locked door {lab} (1d6: {UNLOCK_AT}–6 opens)"))
            else:
                opts.append(Option(f"open:{lab}", f"open the door {lab}"))
        opts.append(Option("move", "leave the door shut and move"))
        return Prompt(
            PromptKind.CHOOSE,
            fig.side,
            f"{self.r.sname(fig.side)}: {self.r.fname(fig.id)} stands at a door — open it, or just move?",
            figure=fig.id,
            options=tuple(opts),
        )

    def _prompt_unlock(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        return Prompt(
            PromptKind.ROLL,
            fig.side,
            f"{self.r.sname(fig.side)}: roll 1d6 for {self.r.fname(fig.id)} at the locked door — "
            f"{UNLOCK_AT}–6 opens it and {self.r.fname(fig.id)} moves, 1–{UNLOCK_AT - 1} fails and the move ends.",
            figure=fig.id,
            dice=(self._die(fig.side, "locked door", fig.id),),
            outcomes=((Outcome(1, UNLOCK_AT - 1, "stays locked"), Outcome(UNLOCK_AT, 6, "opens")),),
            chances=(Chance("the door opens", 0.5), Chance("stays locked", 0.5)),
        )

    def _prompt_move_roll(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        return Prompt(
            PromptKind.ROLL,
            fig.side,
            f"{self.r.sname(fig.side)}: roll 1d6 for {self.r.fname(fig.id)} — 5–6 moves up to {MOVE_LONG} hexes, "
            f"1–4 up to {MOVE_SHORT}.",
            figure=fig.id,
            dice=(self._die(fig.side, "movement", fig.id),),
            outcomes=((Outcome(1, 4, f"up to {MOVE_SHORT} hexes"), Outcome(5, 6, f"up to {MOVE_LONG} hexes")),),
            chances=(Chance(f"up to {MOVE_LONG} hexes", 2 / 6), Chance(f"up to {MOVE_SHORT} hexes", 4 / 6)),
        )

    def _prompt_move(self, state: GameState, step: dict[str, Any]) -> Prompt:
        fig = state.figures[step["figure"]]
        moves = self.r.reachable(state, fig.id)
        return Prompt(
            PromptKind.MOVE,
            fig.side,
            f"{self.r.sname(fig.side)}: move {self.r.fname(fig.id)} up to {step['allowance']} hexes "
            "(or leave it where it is). Entering a hex next to an enemy stops the move and starts a fight.",
            figure=fig.id,
            moves=moves,
        )
