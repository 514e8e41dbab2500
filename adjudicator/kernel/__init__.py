"""What every game shares: the decider shape, the fold, errors, canonical JSON, a seeded RNG."""
