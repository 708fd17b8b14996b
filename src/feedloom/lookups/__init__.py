"""Shared lookups: what both the write and the read path read through the caches.

Post and profile views (cache-aside), author timelines, displayed counts, timeline
rebuilds, and "may this viewer see this post". `read/` and `write/` both import from
here and never from each other.
"""
