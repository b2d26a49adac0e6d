"""The scene toolkit: the lesson's objects (numbers, vectors, a dot product) and how they move."""
