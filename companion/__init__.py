"""companion: a command-line companion for patience played with a real deck."""

__version__ = "0.1.0"
