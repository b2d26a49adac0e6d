"""``render.py --watch``: a live preview that re-renders only the beats an edit changed."""
