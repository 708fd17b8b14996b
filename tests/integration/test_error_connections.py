"""No error answer ends the connection: after a 500, a 503 or a 4xx on a kept-alive
connection the next request on that same connection is served (a real uvicorn server,
configured as `feedloom serve` configures it). Before, a 500 was followed by uvicorn
closing the connection, and the client's next request on it failed."""

from __future__ import annotations

from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.integration.raw_http import KeptAlive
from tests.integration.served import served
from tests.integration.test_database_outage import write_lock_held


async def test_the_connection_outlives_a_500_a_503_and_a_404(settings: Settings) -> None:
    settings = settings.model_copy(update={"database_wait_s": 0.2})
    app = create_app(settings, inline_worker=False)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    async with served(app, settings) as url:
        connection = await KeptAlive.open(url)
        try:
            assert (await connection.send("GET", "/boom")).status == 500
            assert (await connection.send("GET", "/healthz")).status == 200
            assert (await connection.send("GET", "/boom")).problem()["status"] == 500
            assert (await connection.send("GET", "/v1/nothing-here")).status == 404
            with write_lock_held(settings.data_dir / "feedloom.sqlite3"):
                body = b'{"username": "held_up", "password": "a long password"}'
                headers = {"Content-Type": "application/json"}
                refused = await connection.send("POST", "/v1/accounts", headers, body)
                assert refused.status == 503, refused
            assert (await connection.send("GET", "/metrics")).status == 200
            created = await connection.send("POST", "/v1/accounts", headers, body)
            assert created.status == 201, created
        finally:
            await connection.close()
