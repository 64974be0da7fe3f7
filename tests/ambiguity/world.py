"""A small hand-built world with one chain per ambiguity type (games, companies, lakes)."""

from __future__ import annotations

from builder.records.page import Page
from builder.records.wikidata import Entity
from tests.ambiguity.minikb import ent

GAME, DEV, HUMAN, CITY, COUNTRY, LAKE, CONT, COMPANY, CONSOLE = (
    "Q7889",
    "Q210167",
    "Q5",
    "Q515",
    "Q6256",
    "Q23397",
    "Q5107",
    "Q783794",
    "Q8076",
)


def world() -> list[tuple[Entity, Page | None]]:
    return [
        ent(GAME, "video game"),
        ent(DEV, "video game developer"),
        ent(HUMAN, "human"),
        ent(CITY, "city"),
        ent(COUNTRY, "country"),
        ent(LAKE, "lake"),
        ent(CONT, "continent"),
        ent(COMPANY, "company"),
        ent(CONSOLE, "video game console"),
        ent("L:genre-aa", "action-adventure"),
        ent("L:genre-plat", "platformer"),
        ent("L:genre-sim", "life simulation"),
        ent("L:goty", "Game of the Year"),
        # places
        ent(
            "L:japan",
            "Japan",
            COUNTRY,
            {"P36": "L:city-tokyo"},
            "Japan is an island country in East Asia. Its capital is Tokyo.",
        ),
        ent("L:city-tokyo", "Tokyo", CITY, {"P17": "L:japan"}, "Tokyo is the capital of Japan."),
        ent(
            "L:city-kyoto",
            "Kyoto",
            CITY,
            {
                "P17": "L:japan",
                "P1082": [
                    {"v": 1474570, "P585": "2015"},
                    {"v": 1463723, "P585": "2020", "rank": "preferred"},
                ],
            },
            "Kyoto is a city in Japan. Its population was 1,474,570 in 2015 and 1,463,723 in 2020.",
        ),
        ent("L:city-osaka", "Osaka", CITY, {"P17": "L:japan"}, "Osaka is a city in Japan."),
        ent(
            "L:city-sapporo",
            "Sapporo",
            CITY,
            {"P17": "L:japan"},
            "Sapporo is a city in Japan on Hokkaido.",
        ),
        ent("L:africa", "Africa", CONT, {}, "Africa is a continent."),
        ent(
            "L:uganda",
            "Uganda",
            COUNTRY,
            {"P36": "L:city-kampala"},
            "Uganda is a country in East Africa. Its capital is Kampala.",
        ),
        ent(
            "L:tanzania",
            "Tanzania",
            COUNTRY,
            {"P36": "L:city-dodoma"},
            "Tanzania is a country in East Africa. Its capital is Dodoma.",
        ),
        ent(
            "L:malawi",
            "Malawi",
            COUNTRY,
            {"P36": "L:city-lilongwe"},
            "Malawi is a country in southeastern Africa. Its capital is Lilongwe.",
        ),
        ent("L:city-kampala", "Kampala", CITY, {"P17": "L:uganda"}, "Kampala is in Uganda."),
        ent("L:city-dodoma", "Dodoma", CITY, {"P17": "L:tanzania"}, "Dodoma is in Tanzania."),
        ent("L:city-lilongwe", "Lilongwe", CITY, {"P17": "L:malawi"}, "Lilongwe is in Malawi."),
        # lakes (criteria: area vs depth)
        ent(
            "L:lake-victoria",
            "Lake Victoria",
            LAKE,
            {"P30": "L:africa", "P17": "L:uganda", "P2046": 68800, "P4511": 83},
            "Lake Victoria is the largest lake in Africa by area, 68,800 km2. It lies mostly "
            "in Uganda.",
        ),
        ent(
            "L:lake-tanganyika",
            "Lake Tanganyika",
            LAKE,
            {"P30": "L:africa", "P17": "L:tanzania", "P2046": 32900, "P4511": 1470},
            "Lake Tanganyika is a lake in Africa, the deepest on the continent at 1,470 m. "
            "It lies largely in Tanzania.",
        ),
        ent(
            "L:lake-malawi",
            "Lake Malawi",
            LAKE,
            {"P30": "L:africa", "P17": "L:malawi", "P2046": 29600, "P4511": 706},
            "Lake Malawi is a lake in Africa, 706 m deep, mostly in Malawi.",
        ),
        # consoles, developers, people
        ent(
            "L:switch",
            "Nintendo Switch",
            CONSOLE,
            {"P178": "L:nintendo", "P577": "2017-03-03"},
            "The Nintendo Switch is a video game console by Nintendo, released on 3 March 2017.",
        ),
        ent(
            "L:wiiu",
            "Wii U",
            CONSOLE,
            {"P178": "L:nintendo", "P577": "2012-11-18"},
            "The Wii U is a video game console by Nintendo, released on 18 November 2012.",
        ),
        ent(
            "L:nintendo",
            "Nintendo",
            COMPANY,
            {
                "P571": "1889",
                "P159": "L:city-kyoto",
                "P169": [
                    {"v": "L:iwata", "P580": "2002", "P582": "2015"},
                    {"v": "L:kimishima", "P580": "2015", "P582": "2018"},
                    {"v": "L:furukawa", "P580": "2018", "rank": "preferred"},
                ],
            },
            "Nintendo is a Japanese video game company founded in 1889 and headquartered in "
            "Kyoto. Satoru Iwata was its president from 2002 to 2015, Tatsumi Kimishima from "
            "2015 to 2018, and Shuntaro Furukawa since 2018.",
        ),
        ent(
            "L:iwata",
            "Satoru Iwata",
            HUMAN,
            {"P569": "1959-12-06", "P19": "L:city-sapporo"},
            "Satoru Iwata was a Japanese businessman born on 6 December 1959 in Sapporo.",
        ),
        ent(
            "L:kimishima",
            "Tatsumi Kimishima",
            HUMAN,
            {"P569": "1950-04-21", "P19": "L:city-tokyo"},
            "Tatsumi Kimishima is a Japanese businessman born in 1950 in Tokyo.",
        ),
        ent(
            "L:furukawa",
            "Shuntaro Furukawa",
            HUMAN,
            {"P569": "1972-01-10", "P19": "L:city-osaka"},
            "Shuntaro Furukawa is a Japanese businessman born in 1972 in Osaka.",
        ),
        ent(
            "L:epd",
            "Nintendo EPD",
            DEV,
            {"P159": "L:city-kyoto", "P571": "2015"},
            "Nintendo EPD is a video game developer founded in 2015, based in Kyoto.",
        ),
        ent(
            "L:retro",
            "Retro Studios",
            DEV,
            {"P571": "1998"},
            "Retro Studios is a video game developer founded in 1998.",
        ),
        ent(
            "L:fujibayashi",
            "Hidemaro Fujibayashi",
            HUMAN,
            {"P569": "1972-07-23", "P19": "L:city-kyoto"},
            "Hidemaro Fujibayashi is a Japanese game director born in 1972 in Kyoto.",
        ),
        ent(
            "L:motokura",
            "Kenta Motokura",
            HUMAN,
            {"P569": "1976", "P19": "L:city-osaka"},
            "Kenta Motokura is a Japanese game director born in 1976 in Osaka.",
        ),
        ent(
            "L:kyogoku",
            "Aya Kyogoku",
            HUMAN,
            {"P569": "1983", "P19": "L:city-tokyo"},
            "Aya Kyogoku is a Japanese game director born in 1983 in Tokyo.",
        ),
        ent(
            "L:tanabe",
            "Kensuke Tanabe",
            HUMAN,
            {"P569": "1963", "P19": "L:city-osaka"},
            "Kensuke Tanabe is a Japanese game producer born in 1963 in Osaka.",
        ),
        # games
        ent(
            "L:botw",
            "The Legend of Zelda: Breath of the Wild",
            GAME,
            {
                "P178": "L:epd",
                "P577": "2017-03-03",
                "P57": "L:fujibayashi",
                "P400": "L:switch",
                "P136": "L:genre-aa",
                "P166": {"v": "L:goty", "P585": "2017"},
            },
            "The Legend of Zelda: Breath of the Wild is an action-adventure video game "
            "developed by Nintendo EPD and released in 2017 for the Nintendo Switch. It was "
            "directed by Hidemaro Fujibayashi and won Game of the Year.",
            aliases=("Breath of the Wild", "BotW"),
        ),
        ent(
            "L:odyssey",
            "Super Mario Odyssey",
            GAME,
            {
                "P178": "L:epd",
                "P577": "2017-10-27",
                "P57": "L:motokura",
                "P400": "L:switch",
                "P136": "L:genre-plat",
            },
            "Super Mario Odyssey is a platformer video game developed by Nintendo EPD and "
            "released in 2017 for the Nintendo Switch. It was directed by Kenta Motokura.",
        ),
        ent(
            "L:acnh",
            "Animal Crossing: New Horizons",
            GAME,
            {
                "P178": "L:epd",
                "P577": "2020-03-20",
                "P57": "L:kyogoku",
                "P400": "L:switch",
                "P136": "L:genre-sim",
            },
            "Animal Crossing: New Horizons is a life simulation video game developed by "
            "Nintendo EPD and released in 2020. It was directed by Aya Kyogoku.",
        ),
        ent(
            "L:tropical",
            "Donkey Kong Country: Tropical Freeze",
            GAME,
            {
                "P178": "L:retro",
                "P577": "2014-02-21",
                "P57": "L:tanabe",
                "P400": "L:wiiu",
                "P136": "L:genre-plat",
            },
            "Donkey Kong Country: Tropical Freeze is a platformer video game developed by "
            "Retro Studios and released in 2014 for the Wii U. Kensuke Tanabe directed it.",
        ),
    ]
