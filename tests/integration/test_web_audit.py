"""Every page and state of the web client, audited in a real browser (headless Chromium
against a real `feedloom serve`): axe-core finds no serious or critical violation, in
light and dark mode, on a 1280 px desktop and a 390 px phone; and no page scrolls
sideways on the phone (`scrollWidth <= innerWidth`).

axe-core comes from npm, pinned in tests/integration/axe/package-lock.json and
installed by `npm ci` (scripts/_tools, run by ./scripts/test); nothing is downloaded at
test time. Missing, the test skips locally and fails with CI=true.

The world is made through the API first: Ann follows Bo and Cy, who post (text with
tags and mentions, an image) and both like a post of Dee's, whom Ann does not follow, so
Ann's ranked feed recommends it ("Liked by ..."); Ann blocks one account and mutes
another, so Settings lists both. Waits are WebDriverWait's (generous, for a loaded
machine), never sleeps; axe runs only once a state's content is on the page.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec

from tests.images import sunset
from tests.integration.browser import DESKTOP, PHONE, chromium, console_errors, wait
from tests.integration.test_web_client import PASSWORD, Person, Server, start
from tests.servers import in_ci

pytestmark = [pytest.mark.slow]

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = {"serious", "critical"}
RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (result) => done(result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 4).map(
                    (n) => n.target.join(" ") + ": " + n.failureSummary)}))),
  (error) => done([{id: "axe-error", impact: "critical", help: String(error), nodes: []}]),
);
"""


def axe_source() -> str:
    if not AXE.exists():
        why = (
            "axe-core is not installed: run `npm ci` in tests/integration/axe (./scripts/test does)"
        )
        if in_ci():
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    return AXE.read_text()


@pytest.fixture
async def embedded(tmp_path: Path) -> AsyncIterator[Server]:
    # Recommendations take every other slot here, so a short feed shows one.
    env = {
        "FEEDLOOM_DATA_DIR": str(tmp_path / "data"),
        "FEEDLOOM_FEED__OUT_OF_NETWORK_SHARE": "0.5",
        # Ann signs in again for each viewport and mode: no sign-in limit in the way.
        "FEEDLOOM_RATE_LIMITS__SIGN_IN_PER_ADDRESS": "1000/minute",
        "FEEDLOOM_RATE_LIMITS__SIGN_IN_PER_ACCOUNT_ADDRESS": "1000/minute",
        "FEEDLOOM_RATE_LIMITS__SIGN_UP_PER_ADDRESS": "1000/minute",
    }
    async for server in start(env, tmp_path, separate_worker=False, limits={}):
        yield server


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        driver.set_script_timeout(60)
        yield driver


class Account:
    """Someone who only uses the API."""

    def __init__(self, base: str, username: str, name: str) -> None:
        self.base, self.username, self.name = base, username, name
        body = {"username": username, "password": PASSWORD, "display_name": name}
        created = httpx.post(f"{base}/v1/accounts", json=body, timeout=10)
        assert created.status_code == 201, created.text
        self.id = created.json()["id"]
        login = {"username": username, "password": PASSWORD}
        session = httpx.post(f"{base}/v1/sessions", json=login, timeout=10)
        self.token = session.json()["token"]
        self.auth = {"Authorization": f"Bearer {self.token}"}

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        response = httpx.request(
            method, f"{self.base}{path}", headers=self.auth, timeout=10, **kwargs
        )
        assert response.status_code < 300, response.text
        return response.json() if response.content else None

    def post(self, text: str, **body: Any) -> str:
        return str(self.call("POST", "/v1/posts", json={"text": text, **body})["post_id"])

    def image_post(self, text: str, alt: str) -> str:
        ticket = self.call(
            "POST",
            "/v1/media",
            json={"content_type": "image/png", "width": 960, "height": 540, "alt": alt},
        )
        url = ticket["upload_url"]
        upload = httpx.put(
            url if url.startswith("http") else f"{self.base}{url}",
            content=sunset(960, 540),
            headers=self.auth,
            timeout=10,
        )
        assert upload.status_code == 204, upload.text
        return self.post(text, media_ids=[ticket["media_id"]])


@dataclass
class World:
    ann: Account
    bo: Account
    blocked: Account
    image_post: str
    text_post: str
    recommended: str


def make_world(base: str) -> World:
    tag = uuid.uuid4().hex[:5]
    ann, bo, cy, dee = (
        Account(base, f"{who}_{tag}", name)
        for who, name in (
            ("ann", "Ann Reader"),
            ("bo", "Bo Poster"),
            ("cy", "Cy Writer"),
            ("dee", "Dee Stranger"),
        )
    )
    eve, fay = Account(base, f"eve_{tag}", "Eve Blocked"), Account(base, f"fay_{tag}", "Fay Muted")
    for followee in (bo, cy):
        ann.call("PUT", f"/v1/users/{followee.id}/follow")
        followee.call("PUT", f"/v1/users/{dee.id}/follow")
    bo.call("PUT", f"/v1/users/{ann.id}/follow")
    ann.call("PUT", "/v1/me/settings", json={"feed_order": "ranked"})
    ann.call("PUT", f"/v1/users/{eve.id}/block")
    ann.call("PUT", f"/v1/users/{fay.id}/mute")
    recommended = dee.post("Market day: three kinds of plums and a very patient dog. #weekend")
    text_post = ""
    for n in range(4):
        cy.post(f"Reading notes, chapter {n + 1}: the quiet parts are the best parts. #books")
        text_post = bo.post(f"Morning run number {n + 1} by the river with @{cy.username} #running")
    image_post = bo.image_post(
        "The sky tonight over the harbour #photo", "An orange and blue evening sky"
    )
    for liker in (bo, cy):
        liker.call("PUT", f"/v1/posts/{recommended}/like")
    ann.call("POST", f"/v1/posts/{text_post}/comments", json={"text": "Which bridge was it?"})
    ann.post("My own post, to delete")
    return World(ann, bo, eve, image_post, text_post, recommended)


def signed_in(driver: WebDriver, base: str, account: Account) -> Person:
    person = signed_out_at(Person(driver, base, account.username, account.name), "#/login")
    person.find("form.auth #username").send_keys(account.username)
    person.find("#password").send_keys(PASSWORD)
    person.click("form.auth button[type=submit]")
    person.find("form.composer")
    return person


def signed_out_at(person: Person, hash_route: str) -> Person:
    """The page at `hash_route`, loaded afresh with no session kept."""
    person.driver.get(f"{person.base}/{hash_route}")
    person.driver.execute_script("localStorage.clear(); sessionStorage.clear();")
    person.driver.get(f"{person.base}/?fresh#{hash_route.lstrip('#')}")
    return person


def go(person: Person, hash_route: str, ready: str) -> Person:
    # A hash route does not reload the page: a dialog the last state opened is closed.
    person.driver.execute_script(
        "document.querySelectorAll('dialog[open]').forEach((d) => d.close())"
    )
    person.driver.get(f"{person.base}/{hash_route}")
    person.find(ready)
    return person


def states(
    world: World, base: str, newcomer: Account
) -> list[tuple[str, Callable[[Person], Person]]]:
    """Each page and state: how to get there from a signed-in Ann (the last three sign
    in or out themselves, so they come last). Each returns the person now shown."""
    ann, bo = world.ann, world.bo

    def home(p: Person) -> Person:
        go(p, "#/", f"article[data-post-id='{world.recommended}'] .recommended")
        return p

    def why_open(p: Person) -> Person:
        home(p)
        p.click(f"article[data-post-id='{world.recommended}'] details.why summary")
        p.find(f"article[data-post-id='{world.recommended}'] details.why[open] p")
        return p

    def latest(p: Person) -> Person:
        home(p)
        p.click(".tabs button[data-order='chronological']")
        wait(p.driver).until(
            lambda d: (
                not d.find_elements(By.CSS_SELECTOR, ".recommended")
                and d.find_elements(By.CSS_SELECTOR, f"article[data-post-id='{world.text_post}']")
            )
        )
        return p

    def comments_open(p: Person) -> Person:
        go(p, "#/", f"article[data-post-id='{world.text_post}']")
        p.click(f"article[data-post-id='{world.text_post}'] button.comments-toggle")
        p.wait_text(f"article[data-post-id='{world.text_post}']", "Which bridge was it?")
        return p

    def quote_open(p: Person) -> Person:
        go(p, "#/", f"article[data-post-id='{world.text_post}']")
        p.click(f"article[data-post-id='{world.text_post}'] button.quote")
        p.find(f"article[data-post-id='{world.text_post}'] form.quote-form textarea")
        return p

    def confirm_open(p: Person) -> Person:
        go(p, f"#/u/{ann.username}", "article .actions button.danger-text")
        p.click("article .actions button.danger-text")
        p.find("dialog#confirm[open]")
        return p

    def people(p: Person) -> Person:
        go(p, "#/people", "#people-q")
        p.find("#people-q").send_keys(bo.username[:4])
        p.wait_text("#main", "Bo Poster")
        return p

    def thread(p: Person) -> Person:
        go(p, f"#/post/{world.text_post}", "form textarea")
        p.wait_text("#main", "Which bridge was it?")
        return p

    def lightbox(p: Person) -> Person:
        go(p, f"#/post/{world.image_post}", f"article[data-post-id='{world.image_post}'] img")
        link = p.find(f"article[data-post-id='{world.image_post}'] .gallery a.media")
        p.driver.execute_script("arguments[0].focus()", link)
        link.send_keys(Keys.ENTER)
        p.find("dialog.lightbox[open] .lightbox-image")
        wait(p.driver).until(
            lambda d: d.execute_script("return document.querySelector('.lightbox-image').complete")
        )
        return p

    def offline(p: Person) -> Person:
        go(p, "#/settings", "#set-sessions")
        conditions = {"latency": 0, "download_throughput": -1, "upload_throughput": -1}
        p.driver.set_network_conditions(offline=True, **conditions)  # type: ignore[attr-defined]
        try:
            p.click(f"#nav a[href='#/u/{ann.username}'], #nav-profile")
            p.find("#main .panel.error button")
        finally:
            p.driver.set_network_conditions(offline=False, **conditions)  # type: ignore[attr-defined]
        return p

    def new_account(p: Person) -> Person:
        person = signed_in(p.driver, base, newcomer)
        person.wait_text("#who-to-follow", "Who to follow")
        person.find(".discover article")
        return person

    def signed_out(route: str, ready: str) -> Callable[[Person], Person]:
        def show(p: Person) -> Person:
            signed_out_at(p, route).find(ready)
            return p

        return show

    return [
        ("home, for you (a recommendation)", home),
        ("home, why am I seeing this", why_open),
        ("home, latest", latest),
        ("comments open", comments_open),
        ("quote composer open", quote_open),
        ("confirm dialog open", confirm_open),
        ("find people", people),
        ("profile", lambda p: go(p, f"#/u/{bo.username}", "#profile-name")),
        (
            "blocked profile",
            lambda p: go(p, f"#/u/{world.blocked.username}", ".profile button.block"),
        ),
        ("followers", lambda p: go(p, f"#/u/{bo.username}/followers", "#main .person")),
        ("settings", lambda p: go(p, "#/settings", "#set-sessions")),
        ("thread", thread),
        ("post page", lambda p: go(p, f"#/post/{world.image_post}", "article img")),
        ("lightbox open", lightbox),
        ("offline error", offline),
        ("new account's first screen", new_account),
        ("log in", signed_out("#/login", "form.auth #username")),
        ("sign up", signed_out("#/signup", "form.auth #display_name")),
    ]


def audit(driver: WebDriver, source: str) -> list[dict[str, Any]]:
    if not driver.execute_script("return typeof axe !== 'undefined'"):
        driver.execute_script(source)
    found: list[dict[str, Any]] = driver.execute_async_script(RUN_AXE)
    return found


def summary(findings: dict[str, list[dict[str, Any]]]) -> str:
    """Each violation once, with the states it was found in and a few of its nodes."""
    by_rule: dict[str, tuple[list[str], list[str]]] = {}
    for state, violations in findings.items():
        for violation in violations:
            key = f"{violation['id']} ({violation['impact']}): {violation['help']}"
            states, nodes = by_rule.setdefault(key, ([], []))
            states.append(state)
            nodes += [node for node in violation["nodes"] if node not in nodes][:3]
    return "\n".join(
        f"{rule}\n  in: {'; '.join(states)}\n  " + "\n  ".join(nodes[:6])
        for rule, (states, nodes) in by_rule.items()
    )


def overflow(driver: WebDriver) -> int:
    return int(
        driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    )


def set_dark(driver: WebDriver, dark: bool) -> None:
    scheme = {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [scheme]})


def test_every_page_and_state_is_axe_clean_and_never_scrolls_sideways_on_a_phone(
    embedded: Server, browser: WebDriver
) -> None:
    source = axe_source()
    try:
        world = make_world(embedded.url)
        newcomer_tag = uuid.uuid4().hex[:5]
        findings: dict[str, list[dict[str, Any]]] = {}
        overflows: dict[str, int] = {}
        for size, dark in ((DESKTOP, False), (DESKTOP, True), (PHONE, False), (PHONE, True)):
            browser.set_window_size(*size)
            set_dark(browser, dark)
            newcomer = Account(
                embedded.url, f"new{newcomer_tag}{size[0]}{int(dark)}", "Gus Newcomer"
            )
            ann = signed_in(browser, embedded.url, world.ann)
            for name, reach in states(world, embedded.url, newcomer):
                ann = reach(ann)
                label = f"{name} ({size[0]} px, {'dark' if dark else 'light'})"
                if violations := audit(browser, source):
                    findings[label] = violations
                if size == PHONE and (extra := overflow(browser)) > 0:
                    overflows[label] = extra
        assert findings == {}, summary(findings)
        assert overflows == {}, f"pages wider than a phone (px too wide): {overflows}"
    except Exception:
        print(embedded.fleet.tails())
        raise


def test_a_recommendation_says_who_liked_it_on_the_card(
    embedded: Server, browser: WebDriver
) -> None:
    world = make_world(embedded.url)
    ann = signed_in(browser, embedded.url, world.ann)
    card = f"article[data-post-id='{world.recommended}']"
    ann.wait_text(f"{card} .recommended", "Liked by")
    text = ann.find(f"{card} .recommended").text
    assert "Bo Poster" in text and "Cy Writer" in text and "whom you follow" in text, text
    ann.click(f"{card} details.why summary")
    ann.wait_text(f"{card} details.why", "people you follow liked this post")
    ann.click(".tabs button[data-order='chronological']")
    wait(browser).until(ec.invisibility_of_element_located((By.CSS_SELECTOR, card)))
    assert console_errors(browser) == []
