"""Folds over the store: a match's state at (``at``, ``known_at``), per-viewer views and event
listings. Reads the store, calls the pure rules, never writes."""
