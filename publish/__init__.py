"""Publishing the lesson: render every scene in parallel, then join, caption and describe the clips.

``render.py`` is the command; this package holds one small module per job.
"""
