"""Publishing the lesson: render every scene in parallel, then join, caption and describe the clips.

``render.py`` is the command. The folders are the jobs: ``render/`` runs the scenes (workers,
cache keys, the folder claim, progress), ``narration/`` gives them a voice, ``media/`` makes the
files (ffmpeg, captions, the joined video and its upload text, the manifest), ``described/``
makes the described version for blind viewers (the descriptions, the holds, its sound and
video), and ``kit/`` writes the lecture kit beside them (embed page, handout, decks).
``presets`` is what they all share.
"""
