"""Camera and table calibration, map registration and the printables."""
