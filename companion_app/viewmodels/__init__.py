"""Plain-Python view models: everything the screens show, built from the engine's wire dicts.

No Kivy imports here, so the app's logic is tested directly against real engine states.
"""
