"""A feed generator for feedloom (docs/FEEDS.md): serves the post IDs in PICKS, newest
first, to feedloom's signed requests only. Run: python feed_generator.py SECRET PORT ID..."""

import hashlib
import hmac
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PICKS: list[str] = []  # post IDs this generator recommends, oldest first
SECRET = {"key": ""}  # the secret POST /v1/generators answered with


def signed(headers: object, *fields: str) -> bool:
    stamp = headers.get("X-Feedloom-Timestamp", "0")  # type: ignore[attr-defined]
    message = "\n".join([stamp, *fields]).encode()
    expected = "v1=" + hmac.new(SECRET["key"].encode(), message, hashlib.sha256).hexdigest()
    given = headers.get("X-Feedloom-Signature", "")  # type: ignore[attr-defined]
    return abs(time.time() - int(stamp)) < 300 and hmac.compare_digest(expected, given)


class Skeleton(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        query = {key: values[0] for key, values in parse_qs(urlsplit(self.path).query).items()}
        viewer, limit, cursor = query["viewer"], query["limit"], query.get("cursor", "")
        if not signed(self.headers, viewer, limit, cursor):
            return self.send_error(401)
        start = int(cursor or 0)
        ids = PICKS[::-1][start : start + int(limit)]
        more = start + len(ids) < len(PICKS)
        body = {"items": [{"post_id": i} for i in ids], "cursor": str(start + len(ids)) if more else None}
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps(body).encode())


if __name__ == "__main__":
    SECRET["key"], PICKS[:] = sys.argv[1], sys.argv[3:]
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Skeleton).serve_forever()
