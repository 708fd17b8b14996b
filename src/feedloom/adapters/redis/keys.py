"""Every Redis key feedloom writes, named in one place.

Keys start with a configurable prefix (settings.redis_prefix) so several deployments
or test sessions can share one server and each can delete exactly its own keys. The
part in braces is the Redis Cluster hash tag: only it decides the key's slot. Counters,
records and streams are tagged by their own entity, so keys spread evenly over the
cluster. Timelines (home, author and tag) are tagged by a bucket of their user instead,
`TIMELINE_BUCKETS` of them: a fan-out batch of thousands of timelines then falls into
at most that many slots, and scripts.ScriptRunner sends one script call per slot (per
bucket), not one per timeline, because a cluster refuses a multi-key command across
slots. 1024 buckets (the default) still spread over every master of any sensible
cluster; fewer mean fewer, larger script calls per fan-out batch (docs/REDIS.md), and
are a setting (`redis_timeline_buckets`). The count is part of every timeline key, so
every process of a deployment must use the same one (connect.py checks it at start).
"""

from __future__ import annotations

from feedloom.ports import Lane

TIMELINE_BUCKETS = 1024


class RedisKeys:
    def __init__(self, prefix: str, timeline_buckets: int = TIMELINE_BUCKETS) -> None:
        if not prefix or "{" in prefix or "}" in prefix:
            # A brace in the prefix would become the hash tag and put every key
            # of the deployment into one slot.
            raise ValueError(f"redis prefix must be non-empty and brace-free, got {prefix!r}")
        if timeline_buckets < 1:
            raise ValueError(f"timeline buckets must be at least 1, got {timeline_buckets}")
        self.prefix = prefix
        self.timeline_buckets = timeline_buckets

    def timeline(self, user_id: int) -> str:
        return f"{self.prefix}:tl:{{t{user_id % self.timeline_buckets}}}:{user_id}"

    def author_timeline(self, author_id: int) -> str:
        return f"{self.prefix}:at:{{t{author_id % self.timeline_buckets}}}:{author_id}"

    def tag_timeline(self, tag_id: int) -> str:
        """A tag's recent public posts (lookups/tag_timelines.py): bucketed like the
        author timelines, so a fan-out batch's pushes fall into few slots."""
        return f"{self.prefix}:tg:{{t{tag_id % self.timeline_buckets}}}:{tag_id}"

    def timeline_layout(self) -> str:
        """The bucket count the deployment's timeline keys were made with."""
        return f"{self.prefix}:timeline-buckets"

    def view(self, kind: str, key: int) -> str:
        return f"{self.prefix}:{kind}:{{{key}}}"

    def kind_prefix(self, kind: str) -> str:
        """What every key of one kind starts with, a record's generation aside: a view
        ("post", "user"), a record ("lk"), a counter, a viewers sketch (near_cache.py
        tracks these prefixes)."""
        return f"{self.prefix}:{kind}:{{"

    def generation_prefix(self, kind: str) -> str:
        """What every generation of one kind of record starts with: the near cache hears
        these only, so a fill (which leaves the generation be) keeps its own copy."""
        return f"{self.prefix}:{kind}:g:{{"

    def record(self, kind: str, key: str) -> tuple[str, str]:
        """A guarded record and its generation, in one slot."""
        return f"{self.prefix}:{kind}:{{{key}}}", f"{self.prefix}:{kind}:g:{{{key}}}"

    def counter(self, post_id: int) -> str:
        return f"{self.prefix}:ct:{{{post_id}}}"

    def counter_prefix(self) -> str:
        """What every counter and sub-counter key starts with (near_cache.py)."""
        return self.kind_prefix("ct")

    def counter_shard(self, post_id: int, shard: int) -> str:
        """A hot post's sub-counter: a hash tag of its own, so a cluster spreads the
        sub-counters of one post over its nodes (lua.READ_COUNTERS builds the same name)."""
        return f"{self.prefix}:ct:{{{post_id}.{shard}}}"

    def touched_counters(self) -> str:
        """Posts whose counters changed since reconciliation last took them."""
        return f"{self.prefix}:ct:touched"

    def viewers(self, post_id: int) -> str:
        """A post's distinct viewers (HyperLogLog)."""
        return f"{self.prefix}:hv:{{{post_id}}}"

    def viewers_prefix(self) -> str:
        """What every post's distinct viewers key starts with (near_cache.py)."""
        return self.kind_prefix("hv")

    def trending(self, window_s: int, bucket: int, kind: str = "tr") -> str:
        """One trending bucket: of posts (`tr`) or of tags (`tt`)."""
        return f"{self.prefix}:{kind}:{{{window_s}:{bucket}}}"

    def hourly(self, kind: str, hour: int) -> str:
        """Per-account counts of one kind of event in one hour (spike signals)."""
        return f"{self.prefix}:hr:{{{kind}:{hour}}}"

    def session(self, session_id: str) -> str:
        return f"{self.prefix}:fs:{{{session_id}}}"

    def rate_prefix(self) -> str:
        """The `limits` library's key prefix: its moving windows are named under it."""
        return f"{self.prefix}:rl"

    def rate_mark(self, token: str) -> str:
        """A charge-once mark (adapters/redis/rate_limiter.py)."""
        return f"{self.prefix}:rlm:{{{token}}}"

    def stream(self, lane: Lane) -> str:
        return f"{self.prefix}:q:{{{lane}}}"

    def stream_epoch(self, lane: Lane) -> str:
        """The token of the lane's stream's life (same slot as the stream)."""
        return f"{self.prefix}:qe:{{{lane}}}"

    def all_keys(self) -> str:
        """SCAN pattern matching every key of this prefix (for cleanup, never FLUSH)."""
        return f"{self.prefix}:*"
