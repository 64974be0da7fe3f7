"""Ambiguity stage: inject entity/version/criteria/factual ambiguity into seed chains and
check every instance (unique, ambiguous, solvable, consequential, no leakage, retrievable)."""

from builder.ambiguity.inject import InjectResult, inject

__all__ = ["InjectResult", "inject"]
