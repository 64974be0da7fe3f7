"""The one class → domain table.

An entity's domain is read from its classes (P31, then P279 upwards) and, for people
(Q5), from their occupations (P106). Keys are real Wikidata ids where we are sure of them and
local ``L:class-…`` ids for classes the bundled snapshot defines itself. Change domains here
and nowhere else.
"""

from __future__ import annotations

from builder.records.sample import DOMAINS

HUMAN = "Q5"

# domain -> {class id: English label}
DOMAIN_CLASSES: dict[str, dict[str, str]] = {
    "film_tv": {
        "Q11424": "film",
        "Q5398426": "television series",
        "Q24856": "film series",
        "L:class-film-studio": "film studio",
        "L:class-film-award": "film award",
        "L:class-tv-network": "television network",
    },
    "games": {
        "Q7889": "video game",
        "Q7058673": "video game series",
        "Q210167": "video game developer",
        "Q1137109": "video game publisher",
        "Q8076": "video game console",
        "L:class-game-award": "video game award",
    },
    "academic": {
        "Q3918": "university",
        "Q13442814": "scholarly article",
        "Q11862829": "academic discipline",
        "Q31855": "research institute",
        "L:class-science-prize": "science prize",
        "L:class-scientific-theory": "scientific theory",
        "L:class-academic-journal": "academic journal",
        "L:class-planet": "planet",
        "L:class-natural-satellite": "natural satellite",
        "L:class-star": "star",
        "L:class-learned-society": "learned society",
    },
    "art": {
        "Q3305213": "painting",
        "Q860861": "sculpture",
        "Q33506": "museum",
        "Q968159": "art movement",
        "L:class-building": "building",
        "L:class-novel": "novel",
        "L:class-literary-award": "literary award",
        "L:class-art-award": "art award",
    },
    "finance": {
        "Q4830453": "business",
        "Q783794": "company",
        "Q891723": "public company",
        "Q22687": "bank",
        "Q11691": "stock exchange",
        "Q8142": "currency",
        "L:class-stock-index": "stock market index",
        "L:class-industry": "industry",
        "Q66344": "central bank",
        "L:class-economics-prize": "economics prize",
    },
    "sports": {
        "Q476028": "association football club",
        "Q13393265": "basketball team",
        "Q5389": "Olympic Games",
        "Q483110": "stadium",
        "L:class-sports-competition": "sports competition",
        "L:class-sports-award": "sports award",
        "L:class-sports-league": "sports league",
        "L:class-national-team": "national sports team",
        "L:class-sports-federation": "sports governing body",
    },
    "geography": {
        "Q6256": "country",
        "Q515": "city",
        "Q3957": "town",
        "Q5119": "capital city",
        "Q8502": "mountain",
        "Q4022": "river",
        "Q23397": "lake",
        "Q23442": "island",
        "Q5107": "continent",
        "Q35657": "state of the United States",
        "L:class-region": "administrative region",
        "L:class-desert": "desert",
        "Q46831": "mountain range",
    },
    "music": {
        "Q482994": "album",
        "Q7366": "song",
        "Q215380": "musical group",
        "Q188451": "music genre",
        "Q18127": "record label",
        "L:class-music-award": "music award",
        "L:class-opera": "opera",
        "L:class-symphony": "symphony",
    },
    "medicine": {
        "Q12136": "disease",
        "Q12140": "medication",
        "Q808": "virus",
        "Q16917": "hospital",
        "Q134808": "vaccine",
        "L:class-medical-discovery": "medical discovery",
        "L:class-pathogen": "pathogen",
        "L:class-organ": "organ of the human body",
        "L:class-taxon": "taxon",
        "L:class-pharmaceutical-company": "pharmaceutical company",
    },
    "technology": {
        "Q9143": "programming language",
        "Q7397": "software",
        "Q9135": "operating system",
        "L:class-smartphone": "smartphone model",
        "L:class-processor": "microprocessor",
        "L:class-tech-company": "technology company",
        "L:class-spacecraft": "spacecraft",
        "L:class-invention": "invention",
        "L:class-space-agency": "space agency",
    },
    "law_policy": {
        "Q7278": "political party",
        "Q131569": "treaty",
        "Q484652": "international organization",
        "L:class-statute": "statute",
        "L:class-court": "court",
        "L:class-court-case": "court case",
        "L:class-government-office": "government office",
        "L:class-election": "election",
        "L:class-peace-prize": "peace prize",
        "L:class-ngo": "non-governmental organization",
    },
}

# occupation id -> domain, used for people (P31 Q5), read from P106
OCCUPATION_DOMAINS: dict[str, str] = {
    "Q2526255": "film_tv",  # film director
    "Q33999": "film_tv",  # actor
    "Q28389": "film_tv",  # screenwriter
    "L:occ-game-designer": "games",
    "Q901": "academic",  # scientist
    "Q169470": "academic",  # physicist
    "Q593644": "academic",  # chemist
    "Q170790": "academic",  # mathematician
    "L:occ-astronomer": "academic",
    "Q1028181": "art",  # painter
    "Q1281618": "art",  # sculptor
    "Q42973": "art",  # architect
    "Q36180": "art",  # writer
    "Q131524": "finance",  # entrepreneur
    "L:occ-business-executive": "finance",
    "Q188094": "finance",  # economist
    "Q937857": "sports",  # association football player
    "Q3665646": "sports",  # basketball player
    "Q10833314": "sports",  # tennis player
    "L:occ-athlete": "sports",
    "Q628099": "sports",  # association football manager
    "L:occ-explorer": "geography",
    "Q177220": "music",  # singer
    "Q36834": "music",  # composer
    "Q639669": "music",  # musician
    "Q39631": "medicine",  # physician
    "L:occ-medical-researcher": "medicine",
    "L:occ-computer-scientist": "technology",
    "L:occ-engineer": "technology",
    "Q82955": "law_policy",  # politician
    "Q16533": "law_policy",  # judge
    "Q40348": "law_policy",  # lawyer
    "Q116": "law_policy",  # monarch
    "Q193391": "law_policy",  # diplomat
    "L:occ-activist": "law_policy",
    "L:occ-journalist": "law_policy",
    "L:occ-religious-leader": "law_policy",
    "L:occ-missionary": "law_policy",
}

CLASS_DOMAIN: dict[str, str] = {
    cls: domain for domain, classes in DOMAIN_CLASSES.items() for cls in classes
}
CLASS_LABELS: dict[str, str] = {
    cls: label for classes in DOMAIN_CLASSES.values() for cls, label in classes.items()
}

assert set(DOMAIN_CLASSES) == set(DOMAINS), "every domain needs classes, and no others"
assert set(OCCUPATION_DOMAINS.values()) <= set(DOMAINS)


def domain_for_classes(
    class_ids: list[str], occupation_ids: tuple[str, ...] | list[str] = ()
) -> str | None:
    """First domain found among the classes (nearest first), then among occupations."""
    for cls in class_ids:
        if cls in CLASS_DOMAIN:
            return CLASS_DOMAIN[cls]
    for occ in occupation_ids:
        if occ in OCCUPATION_DOMAINS:
            return OCCUPATION_DOMAINS[occ]
    return None
