"""The step scenes, one module per step kind, named after it (``attention_core.steps``)."""
