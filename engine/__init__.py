"""The rules engine: board, hex geometry, scenarios, rule sets and the game journal.

The engine core imports no OpenCV, ZeroMQ or Kivy; the service shell around it does.
"""
