"""Rendering: the run, its workers and pool, cache keys, the folder claim, progress."""
