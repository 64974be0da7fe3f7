"""ambiguity stage."""
