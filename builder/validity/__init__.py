"""Validity: questions true in the real world (completeness model, certificates, live counts)."""
