"""Consumers of positions: terminal text now, PDF sheets later. Never decides legality."""
