"""Zoom: find target pictures in a grid and buzz with their top-left coordinates.

Rules: ``shared/spec/zoom.md``. Choices where the spec is silent, as a fair host would:

* Target labels are case-insensitive on input (``a`` names target ``A``).
* A buzz is graded pair by pair in the order posted; when its pairs find the last target, the
  round ends at that buzz (a buzz names each target once, so no pair of it is left to grade).
* A host ruling that ends a round at instant T applies before any buzz at T.
* An amended outcome (ruling ``amend`` with ``{"A": "correct"}``) replaces the grading of that
  pair only when the pair is eligible at its place in the fold; an ineligible pair stays so.
* The round clock, lockout and Priority durations are the spec's 120 s, 60 s and 20 s.
* Generated rounds: the grid is drawn cell by cell from the alphabet with a seeded splitmix64
  generator, targets are cut from distinct spots, and stray duplicate occurrences are re-drawn
  until every target occurs exactly once.
"""

from adjudicator.games.zoom.game import ZoomGame

__all__ = ["ZoomGame"]
