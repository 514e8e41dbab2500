"""The rules: pure functions that referee each game. No clock, no I/O, no unseeded randomness."""
