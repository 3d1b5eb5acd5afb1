"""Reading dice in a tray through the table camera (see :mod:`vision.dice.reader`)."""
