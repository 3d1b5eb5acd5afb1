"""The app's link to the engine (and the camera preview): a network agent on its own thread."""
