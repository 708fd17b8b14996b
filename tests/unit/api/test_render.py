"""api/render.py writes exactly what the response models of schemas.py describe."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import orjson
from hypothesis import given
from hypothesis import strategies as st

from feedloom.api import render
from feedloom.api.schemas import Explain, FeedItemOut, FeedPageOut, Item, Page, ScoreParts
from feedloom.domain.facets import Facet
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import (
    Counts,
    FeedItem,
    FeedOrder,
    Media,
    MediaSize,
    Post,
    UserProfile,
    Visibility,
)
from feedloom.read.feed_page import FeedPage

ids = st.integers(min_value=1, max_value=2**63 - 1)
texts = st.text(max_size=40)
sizes = st.builds(MediaSize, url=texts, width=st.integers(1, 4096), height=st.integers(1, 4096))
media = st.builds(
    Media,
    id=ids,
    url=texts,
    width=st.integers(1, 4096),
    height=st.integers(1, 4096),
    alt=texts,
    sizes=st.lists(sizes, max_size=3).map(tuple),
)
facets = st.one_of(
    st.builds(Facet, st.just("mention"), st.integers(0, 99), st.integers(0, 99), texts, ids),
    st.builds(
        Facet, st.sampled_from(["tag", "link"]), st.integers(0, 99), st.integers(0, 99), texts
    ),
)
posts = st.builds(
    lambda post_id, author_id, text, visibility, attached, found: Post(
        post_id,
        author_id,
        text,
        visibility,
        created_at_of(post_id),
        tuple(attached),
        facets=tuple(found),
    ),
    ids,
    ids,
    texts,
    st.sampled_from(Visibility),
    st.lists(media, max_size=4),
    st.lists(facets, max_size=4),
)
profiles = st.builds(
    UserProfile, id=ids, username=texts, display_name=texts, avatar=st.none() | texts
)
finite = st.floats(allow_nan=False, allow_infinity=False)
score_parts = st.fixed_dictionaries(
    {
        "affinity_term": finite,
        "engagement_term": finite,
        "decay": finite,
        "age_hours": finite,
        "affinity": finite,
        "likes": st.integers(0, 10**9).map(float),
        "comments": st.integers(0, 10**9).map(float),
    }
)
items = st.builds(
    lambda post, author, likes, comments, liked, source, scored, views: FeedItem(
        post,
        author,
        Counts(likes, comments),
        liked,
        source,
        None if scored is None else scored[0],
        {} if scored is None else scored[1],
        views,
    ),
    posts,
    profiles,
    st.integers(0, 10**9),
    st.integers(0, 10**9),
    st.booleans(),
    st.sampled_from(["pushed", "pulled", "own", "rebuilt", "archive", "tag:café"]),
    st.none() | st.tuples(finite, score_parts),
    st.integers(0, 10**9),
)
pages = st.builds(
    FeedPage,
    items=st.lists(items, max_size=4),
    next_cursor=st.none() | texts,
    order=st.sampled_from(FeedOrder),
    filtered=st.dictionaries(
        st.sampled_from(["blocked", "muted", "deleted"]), st.integers(0, 9)
    ).map(Counter),
    fallback=st.none() | st.sampled_from(["error", "timeout", "session_lost"]),
)


def _as_models(page: FeedPage, explain: bool) -> bytes:
    """What the route returned before api/render.py: the models, unset fields left out."""
    out = []
    for item in page.items:
        model = FeedItemOut(**Item.of(item).model_dump())
        if explain:
            parts = ScoreParts.model_validate(item.extra) if item.score is not None else None
            model.explain = Explain(source=item.source, score=item.score, components=parts)
        out.append(model)
    body = FeedPageOut(items=out, next_cursor=page.next_cursor, order=page.order)
    if page.fallback is not None:  # said whether explained or not
        body.fallback = page.fallback
    if explain:
        body.filtered = dict(page.filtered)
    return body.model_dump_json(exclude_unset=True).encode()


@given(pages, st.booleans())
def test_a_feed_page_renders_as_its_model_does(page: FeedPage, explain: bool) -> None:
    assert orjson.loads(render.feed_page(page, explain)) == orjson.loads(_as_models(page, explain))


@given(pages.map(lambda page: replace(page, fallback=None)))  # author pages never fall back
def test_an_author_page_renders_as_its_model_does(page: FeedPage) -> None:
    model = Page(
        items=[Item.of(item) for item in page.items],
        next_cursor=page.next_cursor,
        order=page.order,
    )
    assert orjson.loads(render.feed_page(page)) == orjson.loads(model.model_dump_json())
