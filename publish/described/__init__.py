"""The described version, for blind viewers: each beat's description, spoken in its pause.

``descriptions`` says in words what the screen shows and the voice does not (the transcript and
the descriptions track read it too); ``holds`` places each spoken description after its beat's
words and holds the picture where one does not fit, the time map between the two videos;
``sound`` and ``video`` write the described narration and the described video; ``make`` is the
``render.py --described`` step that runs them.
"""
