"""Hand-built, realistic samples for the review tests (no other stage needed)."""

from __future__ import annotations

from builder.records.sample import Candidate, Checkpoint, Evidence, Sample, difficulty_for

_FILMS = [
    ("Q25188", "Inception", "Christopher Nolan", "Q25191", "London"),
    ("Q163872", "The Dark Knight", "Christopher Nolan", "Q25191", "London"),
    ("Q83495", "The Matrix", "Lana Wachowski", "Q2210", "Chicago"),
    ("Q47703", "The Godfather", "Francis Ford Coppola", "Q56094", "Detroit"),
    ("Q104123", "Pulp Fiction", "Quentin Tarantino", "Q3772", "Knoxville"),
]


def make_sample(i: int) -> Sample:
    """Sample ``i``: a two-hop film -> director -> birthplace chain, first hop ambiguous."""
    film_id, film, director, _, city = _FILMS[i % len(_FILMS)]
    sibling_id, sibling, _, _, sibling_city = _FILMS[(i + 1) % len(_FILMS)]
    checkpoints = [
        Checkpoint(
            index=1,
            goal="Which film about a heist in dreams came out around 2010?",
            answer=film,
            entity_id=film_id,
            ambiguous=True,
            ambiguity_type="entity",
            ambiguity_note="the year is weakened to 'around 2010'",
            candidates=[
                Candidate(id=film_id, label=film, downstream_answer=city),
                Candidate(id=sibling_id, label=sibling, downstream_answer=sibling_city),
            ],
            clue=f"I remember the poster of item {i} had a spinning top on it.",
            evidence=[
                Evidence(
                    title=film,
                    url=f"https://en.wikipedia.org/wiki/{film.replace(' ', '_')}",
                    snippet=f"{film} is a film directed by {director}.",
                )
            ],
        ),
        Checkpoint(
            index=2,
            goal="Where was that film's director born?",
            answer=city,
            entity_id="",
            evidence=[Evidence(title=director, snippet=f"{director} was born in {city}.")],
        ),
    ]
    n_amb = sum(1 for c in checkpoints if c.ambiguous)
    return Sample(
        id=f"disco-{i:06d}",
        domain="film_tv",
        difficulty=difficulty_for(n_amb),
        question=f"Where was the director of that dream-heist film born? (item {i})",
        unambiguous_question=f"Where was the director of {film} (2010) born? (item {i})",
        answer=city,
        checkpoints=checkpoints,
        num_ambiguities=n_amb,
    )


def make_samples(n: int, start: int = 0) -> list[Sample]:
    return [make_sample(i) for i in range(start, start + n)]
