"""What a lesson may hold, and the error that names the field a lesson breaks it in."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LIMITS", "LessonError", "Limits"]


class LessonError(ValueError):
    """A lesson file that cannot be shown; the message names the field and the problem."""


@dataclass(frozen=True)
class Limits:
    """What a lesson may hold so that every scene can still lay it out on screen."""

    min_tokens: int = 2
    max_tokens: int = 6
    max_query_length: int = 9
    max_value_length: int = 6
    max_abs_number: float = 99
    max_abs_score: float = 12
    """So that e^score stays a number a viewer can read: e^12 ≈ 162754.79."""
    max_decimals: int = 2
    max_short_length: int = 10
    max_token_text: int = 32
    max_title: int = 40
    max_line: int = 80
    max_paragraph: int = 160
    max_answer: int = 8
    max_references: int = 4
    max_steps: int = 12
    max_file_bytes: int = 64 * 1024
    max_asking_d_k: int = 4
    """dₖ when every token asks: each of up to 6 × 6 cells writes out a dot product of dₖ terms."""
    max_heads: int = 3
    max_d_model: int = 6
    """An embedding's length: the rows of every W_Q, W_K, W_V."""
    max_head_width: int = 4
    """A head's dₖ (W_Q's and W_K's columns) and d_v (W_V's): up to 3 × 4 joined entries."""
    max_out_width: int = 6
    """W_O's columns."""
    max_abs_entry: float = 9
    """An embedding's or a learned matrix's entries, small so that x·W can be done by hand."""
    entry_decimals: int = 1
    """Their decimal places: one each keeps every x·W exact at two places (as shown)."""


LIMITS = Limits()
