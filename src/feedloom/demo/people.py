"""Who the demo's people are: real-sounding names, each with the language they write in,
so that typing "a" in Find people finds someone and a feed reads like people."""

from __future__ import annotations

import random
from dataclasses import dataclass

FIRST_NAMES: dict[str, tuple[str, ...]] = {
    "en": (
        "Alice",
        "Ben",
        "Chloe",
        "Daniel",
        "Emma",
        "Finn",
        "Grace",
        "Harry",
        "Isla",
        "Jack",
        "Kate",
        "Liam",
        "Maya",
        "Noah",
        "Olivia",
        "Priya",
        "Quinn",
        "Ruby",
        "Sam",
        "Tom",
        "Uma",
        "Victor",
        "Willow",
        "Zoe",
        "Amara",
        "Kofi",
        "Mei",
        "Diego",
        "Hana",
        "Omar",
    ),
    "fr": (
        "Camille",
        "Lucas",
        "Léa",
        "Hugo",
        "Manon",
        "Louis",
        "Chloé",
        "Jules",
        "Inès",
        "Arthur",
        "Sarah",
        "Paul",
        "Jeanne",
        "Théo",
        "Zoé",
        "Mathis",
        "Élodie",
        "Karim",
    ),
    "bn": (
        "Anika",
        "Rafi",
        "Tanvir",
        "Nusrat",
        "Arjun",
        "Priyanka",
        "Sourav",
        "Mitali",
        "Farhan",
        "Shreya",
        "Imran",
        "Rupa",
        "Debashis",
        "Tahmina",
        "Sayan",
        "Ishita",
    ),
}
LAST_NAMES: dict[str, tuple[str, ...]] = {
    "en": (
        "Smith",
        "Jones",
        "Patel",
        "Brown",
        "Taylor",
        "Wilson",
        "Evans",
        "Thomas",
        "Walker",
        "Wright",
        "Green",
        "Hall",
        "Wood",
        "Clarke",
        "Okafor",
        "Chen",
        "Garcia",
        "Khan",
    ),
    "fr": (
        "Martin",
        "Bernard",
        "Dubois",
        "Thomas",
        "Robert",
        "Richard",
        "Petit",
        "Durand",
        "Leroy",
        "Moreau",
        "Simon",
        "Laurent",
        "Lefebvre",
        "Michel",
        "Fournier",
        "Benali",
    ),
    "bn": (
        "Rahman",
        "Hossain",
        "Chowdhury",
        "Das",
        "Sen",
        "Banerjee",
        "Mukherjee",
        "Islam",
        "Ahmed",
        "Roy",
        "Ghosh",
        "Chatterjee",
        "Akter",
        "Bose",
        "Sarkar",
        "Dutta",
    ),
}
# Bengali writers show their names in Bengali script about half the time.
BENGALI_SCRIPT: dict[str, str] = {
    "Anika": "আনিকা",
    "Rafi": "রাফি",
    "Tanvir": "তানভীর",
    "Nusrat": "নুসরাত",
    "Arjun": "অর্জুন",
    "Priyanka": "প্রিয়াঙ্কা",
    "Sourav": "সৌরভ",
    "Mitali": "মিতালি",
    "Farhan": "ফারহান",
    "Shreya": "শ্রেয়া",
    "Imran": "ইমরান",
    "Rupa": "রূপা",
    "Debashis": "দেবাশীষ",
    "Tahmina": "তাহমিনা",
    "Sayan": "সায়ন",
    "Ishita": "ঈশিতা",
    "Rahman": "রহমান",
    "Hossain": "হোসেন",
    "Chowdhury": "চৌধুরী",
    "Das": "দাস",
    "Sen": "সেন",
    "Banerjee": "বন্দ্যোপাধ্যায়",
    "Mukherjee": "মুখোপাধ্যায়",
    "Islam": "ইসলাম",
    "Ahmed": "আহমেদ",
    "Roy": "রায়",
    "Ghosh": "ঘোষ",
    "Chatterjee": "চট্টোপাধ্যায়",
    "Akter": "আক্তার",
    "Bose": "বসু",
    "Sarkar": "সরকার",
    "Dutta": "দত্ত",
}
LANGUAGES = ("en", "fr", "bn")
LANGUAGE_WEIGHTS = (0.5, 0.25, 0.25)
ASCII = str.maketrans("éèêëàâîïôûùçÉ", "eeeeaaiiouucE")


@dataclass(frozen=True, slots=True)
class Person:
    username: str
    display_name: str
    language: str


def demo_people(count: int, seed: int) -> list[Person]:
    """`count` people, the same for the same seed, usernames unique (ASCII, as the
    service requires); the first is the demo account itself."""
    rng = random.Random(seed)
    people = [Person("demo", "Demo Reader", "en")]
    taken = {"demo"}
    while len(people) < count:
        language = rng.choices(LANGUAGES, LANGUAGE_WEIGHTS)[0]
        first, last = rng.choice(FIRST_NAMES[language]), rng.choice(LAST_NAMES[language])
        username = _username(rng, first, last)
        if username in taken:
            continue
        taken.add(username)
        name = f"{first} {last}"
        if language == "bn" and rng.random() < 0.5:
            name = f"{BENGALI_SCRIPT[first]} {BENGALI_SCRIPT[last]}"
        people.append(Person(username, name, language))
    return people


def _username(rng: random.Random, first: str, last: str) -> str:
    first, last = first.translate(ASCII).lower(), last.translate(ASCII).lower()
    shape = rng.randrange(4)
    if shape == 0:
        return f"{first}_{last}"
    if shape == 1:
        return f"{first}{last[0]}"
    if shape == 2:
        return f"{first}_{rng.randrange(10, 99)}"
    return f"{first[0]}{last}"
