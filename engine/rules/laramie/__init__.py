"""Laramie station duel: a western skirmish on hexes with 1d10, eight unit states, facing, stacks and heroes."""

from engine.rules import register

from .rules import Laramie

register(Laramie)
