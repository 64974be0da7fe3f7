"""Clue text: templates filled without doubled punctuation."""

from builder.ambiguity.clues import _fill


def test_label_ending_in_a_full_stop_does_not_double_it():
    template = "I remember it's located in {v}."
    assert _fill(template, v="Washington, D.C.") == "I remember it's located in Washington, D.C."
    assert _fill(template, v="Paris") == "I remember it's located in Paris."


def test_article_follows_the_value():
    assert _fill("I remember they worked as {a} {v}.", v="engineer") == (
        "I remember they worked as an engineer."
    )
