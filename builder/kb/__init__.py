"""kb stage."""
