"""Narration: the voices, what they say, the beats timed to it, and each clip's soundtrack."""
