"""A tiny hand-built world: a real SQLite snapshot store with pages, and samples over it.

Each sample has an ambiguous first hop whose vague goal fits a decoy page best, while the
target's page states the facts the clue and the unambiguous question restore.
"""

from __future__ import annotations

from pathlib import Path

from builder.kb.store import KnowledgeStore
from builder.records.page import Page
from builder.records.sample import Candidate, Checkpoint, Sample

PAGES = [
    Page(
        entity_id="Q1",
        title="Breath of the Wild",
        url="https://en.wikipedia.org/wiki/Breath_of_the_Wild",
        text="Breath of the Wild is an action-adventure game developed by Nintendo EPD, with a "
        "vast open world where the player explores with a paraglider. It won Game of the Year "
        "at The Game Awards 2017. It was directed by Hidemaro Fujibayashi.",
    ),
    Page(
        entity_id="Q2",
        title="Super Mario Odyssey",
        url="https://en.wikipedia.org/wiki/Super_Mario_Odyssey",
        text="Super Mario Odyssey is a platform game developed by Nintendo EPD, directed by "
        "Kenta Motokura.",
    ),
    Page(
        entity_id="Q3",
        title="Hidemaro Fujibayashi",
        text="Hidemaro Fujibayashi is a Japanese game director, born in 1972.",
    ),
    Page(
        entity_id="Q4",
        title="Kenta Motokura",
        text="Kenta Motokura is a Japanese game director, born in 1977.",
    ),
    Page(
        entity_id="Q5",
        title="Paris",
        text="Paris is the capital of France. Its population in 2020 was about 2.1 million; "
        "Paris hosted the 2024 Summer Olympics.",
    ),
    Page(
        entity_id="Q6",
        title="Lyon",
        text="Lyon is a large city in France, a city of France known for its cuisine, a city "
        "in France with a famous festival of lights.",
    ),
    Page(
        entity_id="Q7",
        title="Anne Hidalgo",
        text="Anne Hidalgo has been mayor of Paris since 2014.",
    ),
    Page(
        entity_id="Q8",
        title="Grégory Doucet",
        text="Grégory Doucet has been mayor of Lyon since 2020.",
    ),
]


# a chain with two ambiguous hops: which city (the capital that hosted the 2024 Olympics),
# then which of its mayors (the one in office in 2005); and a factual hop whose true year is
# also the prize's year (what the unambiguous question restores is no new word there)
RESTORED_PAGES = [
    Page(
        entity_id="P1",
        title="Paris",
        text="Paris is the capital of France. Paris hosted the 2024 Summer Olympics.",
    ),
    Page(
        entity_id="P2",
        title="Lyon",
        text="Lyon is a city in France, a city of France known for its cuisine.",
    ),
    Page(
        entity_id="M1",
        title="Jacques Chirac",
        text="Jacques Chirac was mayor of Paris from 1977 to 1995.",
    ),
    Page(
        entity_id="M2",
        title="Bertrand Delanoë",
        text="Bertrand Delanoë was mayor of Paris from 2001 to 2014.",
    ),
    Page(
        entity_id="M3",
        title="Anne Hidalgo",
        text="Anne Hidalgo has been mayor of Paris since 2014. The mayor of Paris welcomed "
        "the 2024 Summer Olympics to the capital.",
    ),
    Page(
        entity_id="M4",
        title="Gérard Collomb",
        text="Gérard Collomb was mayor of Lyon from 2001 to 2017.",
    ),
    Page(
        entity_id="B1",
        title="Prophet Song",
        text="Prophet Song is a novel by Paul Lynch, released in 2023. It won the 2023 "
        "Booker Prize.",
    ),
    Page(
        entity_id="B2",
        title="The Luminaries",
        text="The Luminaries is a novel by Eleanor Catton, released in 2013. The novel won "
        "the 2013 Booker Prize; in 2013 it was the longest novel to win the Booker Prize.",
    ),
    Page(entity_id="A1", title="Paul Lynch", text="Paul Lynch is an Irish novelist."),
    Page(entity_id="A2", title="Eleanor Catton", text="Eleanor Catton is a novelist."),
]


def build_store(path: Path, pages: list[Page] = PAGES) -> KnowledgeStore:
    store = KnowledgeStore.open(path)
    store.upsert_pages(pages)
    store.set_meta("snapshot_id", "test-world")
    store.set_meta("snapshot_version", "1")
    return store


def world_samples() -> list[Sample]:
    game = Sample(
        id="w-game",
        domain="games",
        difficulty="easy",
        question="Who directed the game developed by Nintendo EPD?",
        unambiguous_question="Who directed the open world game with a paraglider that won Game "
        "of the Year at The Game Awards 2017?",
        answer="Hidemaro Fujibayashi",
        checkpoints=[
            Checkpoint(
                index=1,
                goal="Which game developed by Nintendo EPD?",
                answer="Breath of the Wild",
                answer_aliases=["The Legend of Zelda: Breath of the Wild"],
                entity_id="Q1",
                ambiguous=True,
                ambiguity_type="entity",
                candidates=[
                    Candidate(
                        id="Q1",
                        label="Breath of the Wild",
                        downstream_answer="Hidemaro Fujibayashi",
                    ),
                    Candidate(
                        id="Q2", label="Super Mario Odyssey", downstream_answer="Kenta Motokura"
                    ),
                ],
                clue="I remember exploring a vast open world with a paraglider.",
            ),
            Checkpoint(
                index=2,
                goal="Who directed that game?",
                answer="Hidemaro Fujibayashi",
                entity_id="Q3",
            ),
        ],
        num_ambiguities=1,
    )
    city = Sample(
        id="w-city",
        domain="geography",
        difficulty="easy",
        question="Who is the mayor of the city in France?",
        unambiguous_question="Who is the mayor of the capital of France that hosted the 2024 "
        "Summer Olympics?",
        answer="Anne Hidalgo",
        checkpoints=[
            Checkpoint(
                index=1,
                goal="Which city in France?",
                answer="Paris",
                entity_id="Q5",
                ambiguous=True,
                ambiguity_type="entity",
                candidates=[
                    Candidate(id="Q5", label="Paris", downstream_answer="Anne Hidalgo"),
                    Candidate(id="Q6", label="Lyon", downstream_answer="Grégory Doucet"),
                ],
                clue="I think it hosted the Olympics a couple of summers ago; it's the capital.",
            ),
            Checkpoint(
                index=2,
                goal="Who is the mayor of that city?",
                answer="Anne Hidalgo",
                entity_id="Q7",
            ),
        ],
        num_ambiguities=1,
    )
    return [game, city]


def mayor_sample() -> Sample:
    """Two ambiguous hops over ``RESTORED_PAGES``, each restoring its own words in the
    unambiguous question: the Olympics at hop 1, the year 2005 at hop 2."""
    mayors = [
        Candidate(id="M1", label="Jacques Chirac (1977)", downstream_answer="Jacques Chirac"),
        Candidate(id="M2", label="Bertrand Delanoë (2001)", downstream_answer="Bertrand Delanoë"),
        Candidate(id="M3", label="Anne Hidalgo (2014)", downstream_answer="Anne Hidalgo"),
    ]
    return Sample(
        id="w-mayor",
        domain="geography",
        difficulty="medium",
        question="Who was the mayor of the city in France?",
        unambiguous_question="Who was the mayor in 2005 of the capital of France that hosted "
        "the 2024 Summer Olympics?",
        answer="Bertrand Delanoë",
        checkpoints=[
            Checkpoint(
                index=1,
                goal="Which city in France?",
                unambiguous_goal="Which capital of France hosted the 2024 Summer Olympics?",
                answer="Paris",
                entity_id="P1",
                ambiguous=True,
                ambiguity_type="entity",
                candidates=[
                    Candidate(id="P1", label="Paris", downstream_answer="Bertrand Delanoë"),
                    Candidate(id="P2", label="Lyon", downstream_answer="Gérard Collomb"),
                ],
                clue="I think it hosted the Olympics a couple of summers ago.",
            ),
            Checkpoint(
                index=2,
                goal="Who was the mayor of that city?",
                unambiguous_goal="Who was the mayor of that city in 2005?",
                answer="Bertrand Delanoë",
                entity_id="M2",
                ambiguous=True,
                ambiguity_type="version",
                candidates=mayors,
                clue="I mean the one in 2005.",
            ),
        ],
        num_ambiguities=2,
    )


def booker_sample() -> Sample:
    """A factual hop over ``RESTORED_PAGES``: the question misremembers the year the novel
    came out (2013, the other winner's); the unambiguous question says 2023, a word the goal
    already has (the prize's year)."""
    return Sample(
        id="w-booker",
        domain="art",
        difficulty="easy",
        question="Who wrote the novel that was released in 2013 and won the 2023 Booker Prize?",
        unambiguous_question="Who wrote the novel that was released in 2023 and won the 2023 "
        "Booker Prize?",
        answer="Paul Lynch",
        checkpoints=[
            Checkpoint(
                index=1,
                goal="Which novel was released in 2013 and won the 2023 Booker Prize?",
                unambiguous_goal="Which novel was released in 2023 and won the 2023 Booker Prize?",
                answer="Prophet Song",
                entity_id="B1",
                ambiguous=True,
                ambiguity_type="factual",
                candidates=[
                    Candidate(id="B1", label="Prophet Song (2023)", downstream_answer="Paul Lynch"),
                    Candidate(
                        id="B2", label="The Luminaries (2013)", downstream_answer="Eleanor Catton"
                    ),
                ],
                clue="I think it came out in 2023.",
            ),
            Checkpoint(index=2, goal="Who wrote that novel?", answer="Paul Lynch", entity_id="A1"),
        ],
        num_ambiguities=1,
    )
