"""The scene probe now lives in scenes.probe (render.py uses it too); kept here for old imports."""

from scenes.probe import NUMBER, Probe, Shown, displayed_string, run_dry, texts_on_screen

__all__ = ["NUMBER", "Probe", "Shown", "displayed_string", "run_dry", "texts_on_screen"]
