"""Tenkey battle: the 3×3 keypad zone board of the original rules."""
