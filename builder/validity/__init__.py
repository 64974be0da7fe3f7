"""Validity: why a checkpoint's description has exactly the answers it claims in the world."""
