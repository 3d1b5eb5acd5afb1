"""Kivy front end: widgets and screens. Everything here draws view models; no logic of the game."""
