"""The games: one package per game, each a pure decider over its own events."""
