"""The lecture kit written beside the clips: the embed page, the handout, the decks."""
