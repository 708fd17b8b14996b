"""Demo posts and comments: one or two sentences in the writer's language, sometimes a
hashtag or two and a mention of someone they know (demo/sentences.py has the words)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from feedloom.demo.sentences import REPLIES, SENTENCES, TAGS


def demo_text(
    rng: random.Random, language: str = "en", friends: Sequence[str] = (), max_chars: int = 280
) -> str:
    """A post: what someone might write, with tags and a mention now and then."""
    sentences = SENTENCES[language]
    parts = [rng.choice(sentences)]
    if rng.random() < 0.3:
        parts.append(rng.choice(sentences))
    if friends and rng.random() < 0.2:
        parts.append(_with(rng, language, rng.choice(friends)))
    if rng.random() < 0.5:
        tags = rng.sample(TAGS[language], rng.choice((1, 1, 2)))
        parts.append(" ".join(f"#{tag}" for tag in tags))
    text = " ".join(parts)
    return text if len(text) <= max_chars else parts[0]


def demo_reply(rng: random.Random, language: str = "en") -> str:
    return rng.choice(REPLIES[language])


def _with(rng: random.Random, language: str, username: str) -> str:
    phrasing = {
        "en": ("with @{}", "thanks @{}!", "@{} you would love this"),
        "fr": ("avec @{}", "merci @{} !", "@{} ça va te plaire"),
        "bn": ("@{} এর সাথে", "ধন্যবাদ @{}!", "@{} তোমার ভালো লাগবে"),
    }[language]
    return rng.choice(phrasing).format(username)
