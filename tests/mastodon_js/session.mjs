// A masto.js session against a feedloom server the Python test started
// (tests/integration/test_masto_js.py): node --experimental-websocket session.mjs URL
// Signs in two accounts (made by the test) through the real sign-in form with PKCE,
// then drives the Mastodon-compatible API with masto.js alone, the streaming socket
// included. Exits non-zero, saying why, at the first thing that is not as Mastodon's.
import { createHash, randomBytes } from "node:crypto";
import assert from "node:assert/strict";
import { createOAuthAPIClient, createRestAPIClient, createStreamingAPIClient } from "masto";

// masto 8 targets Node 22; Debian's Node 20 lacks Promise.withResolvers (and has a global
// WebSocket only with --experimental-websocket, which the test passes).
Promise.withResolvers ??= function withResolvers() {
  let resolve, reject;
  const promise = new Promise((yes, no) => { resolve = yes; reject = no; });
  return { promise, resolve, reject };
};

const [url, password, ...usernames] = process.argv.slice(2);
const REDIRECT = "https://app.example/callback";
const SCOPE = "read write follow";
const PNG = Buffer.from(process.env.SESSION_PNG_BASE64, "base64");

async function signIn(username) {
  const app = await createRestAPIClient({ url }).v1.apps.create({
    clientName: "masto.js session", redirectUris: REDIRECT, scopes: SCOPE,
  });
  const verifier = randomBytes(48).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const query = new URLSearchParams({
    client_id: app.clientId, redirect_uri: REDIRECT, response_type: "code", scope: SCOPE,
    state: "st", code_challenge: challenge, code_challenge_method: "S256",
  });
  const page = await fetch(`${url}/oauth/authorize?${query}`);
  assert.equal(page.status, 200);
  const form = new URLSearchParams(query);
  form.set("username", username); form.set("password", password); form.set("decision", "approve");
  const answer = await fetch(`${url}/oauth/authorize`, { method: "POST", body: form, redirect: "manual" });
  assert.equal(answer.status, 302);
  const back = new URL(answer.headers.get("location"));
  assert.equal(back.searchParams.get("state"), "st");
  const token = await createOAuthAPIClient({ url }).token.create({
    grantType: "authorization_code", clientId: app.clientId, clientSecret: app.clientSecret,
    redirectUri: REDIRECT, code: back.searchParams.get("code"), codeVerifier: verifier, scope: SCOPE,
  });
  return { rest: createRestAPIClient({ url, accessToken: token.accessToken }), token: token.accessToken };
}

const [alice, bob] = [await signIn(usernames[0]), await signIn(usernames[1])];
const me = await alice.rest.v1.accounts.verifyCredentials();
assert.equal(me.acct, usernames[0]);
const bobId = (await bob.rest.v1.accounts.verifyCredentials()).id;
const instance = await alice.rest.v2.instance.fetch();
assert.equal(instance.configuration.statuses.maxCharacters, 500);

const media = await alice.rest.v2.media.create({
  file: new Blob([PNG], { type: "image/png" }), description: "a red square",
});
assert.equal(media.type, "image");
const key = { requestInit: { headers: { "Idempotency-Key": "masto-1" } } };
const first = await alice.rest.v1.statuses.create({ status: "hello from masto.js", mediaIds: [media.id] }, key);
const again = await alice.rest.v1.statuses.create({ status: "hello from masto.js", mediaIds: [media.id] }, key);
assert.equal(again.id, first.id);
assert.equal(first.mediaAttachments[0].id, media.id);

assert.equal((await alice.rest.v1.accounts.$select(bobId).follow()).following, true);
const posted = [];
for (let n = 0; n < 7; n++) posted.push((await bob.rest.v1.statuses.create({ status: `bob ${n}` })).id);
const seen = [];
let pages = 0;
for await (const page of alice.rest.v1.timelines.home.list({ limit: 3 })) {
  seen.push(...page.map((status) => status.id));
  if (++pages === 3) break;
}
assert.deepEqual(seen, [...posted].reverse().concat([first.id]));

const target = alice.rest.v1.statuses.$select(posted[6]);
assert.equal((await target.favourite()).favourited, true);
assert.equal((await target.reblog()).reblogged, true);
const reply = await alice.rest.v1.statuses.create({ status: "a reply", inReplyToId: posted[6] });
const context = await alice.rest.v1.statuses.$select(reply.id).context.fetch();
assert.deepEqual(context.ancestors.map((status) => status.id), [posted[6]]);

const streaming = createStreamingAPIClient({
  streamingApiUrl: instance.configuration.urls.streaming, accessToken: alice.token, retry: 3,
});
const subscription = streaming.user.subscribe();
// masto.js connects when it subscribes and says nothing when it is connected: bob posts
// news every few seconds until one of his posts arrives as an `update`.
const news = new Set();
let arrived = null;
let notified = null;
const listening = (async () => {
  for await (const event of subscription) {
    if (event.event === "update" && news.has(event.payload.id)) arrived = event.payload;
    if (event.event === "notification" && event.payload.type === "follow") { notified = event.payload; return; }
  }
})();
const waited = (ms) => Promise.race([listening, new Promise((resolve) => setTimeout(resolve, ms))]);
for (let attempt = 0; arrived === null && attempt < 20; attempt++) {
  news.add((await bob.rest.v1.statuses.create({ status: `news ${attempt}` })).id);
  await waited(3000);
}
assert.ok(arrived !== null, "no update event arrived on the socket");
assert.equal(arrived.account.id, bobId);
// Alice receives a notification: bob follows her, and she is told on the socket.
await bob.rest.v1.accounts.$select(me.id).follow();
await waited(60000);
assert.ok(notified !== null, "no notification event arrived on the socket");
assert.equal(notified.account.id, bobId);
subscription.unsubscribe();
streaming.close();

const [followed] = await alice.rest.v1.notifications.list({ types: ["follow"] });
assert.equal(followed.id, notified.id);
assert.equal(followed.account.id, bobId);
const grouped = await alice.rest.v2.notifications.list();
assert.equal(grouped.notificationGroups[0].groupKey, followed.groupKey);
assert.deepEqual(grouped.notificationGroups[0].sampleAccountIds, [bobId]);
const markers = await alice.rest.v1.markers.create({ notifications: { lastReadId: followed.id } });
assert.equal(markers.notifications.lastReadId, followed.id);
await alice.rest.v1.notifications.$select(followed.id).dismiss();
assert.deepEqual(await alice.rest.v1.notifications.list({ types: ["follow"] }), []);

const edited = await alice.rest.v1.statuses.$select(first.id).update({ status: "hello again from masto.js" });
assert.equal(edited.content, "<p>hello again from masto.js</p>");
assert.equal((await alice.rest.v1.statuses.$select(first.id).history.list()).length, 2);
const deleted = await alice.rest.v1.statuses.$select(first.id).remove();
assert.equal(deleted.text, "hello again from masto.js");
await assert.rejects(alice.rest.v1.statuses.$select(first.id).fetch(), (error) => error.statusCode === 404);
console.log("masto.js session: ok");
