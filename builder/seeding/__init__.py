"""seeding stage."""
