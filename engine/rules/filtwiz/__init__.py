"""Filtwiz detailed rules (RULES.md §3): ranges, areas, fans, strict line of sight, flight, water and mass combat."""

from engine.rules import register
from engine.rules.filtwiz.rules import Filtwiz

register(Filtwiz)

__all__ = ["Filtwiz"]
