"""The Kivy tablet app beside the board. It holds no rules: all legality comes from the engine."""
