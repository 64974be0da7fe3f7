"""Seeding stage: verifiable multi-hop chains over the knowledge snapshot."""

from builder.seeding.generate import generate_seeds

__all__ = ["generate_seeds"]
