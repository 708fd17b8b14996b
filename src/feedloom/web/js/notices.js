// "N new posts": the home stream (Server-Sent Events, opened with a ticket since an
// EventSource cannot send the bearer token) tells how many posts arrived above the
// newest one shown. If the stream cannot be had, GET /v1/feed/new is polled instead.
// The feed itself never changes here: the caller shows a button.

import { api } from "./api.js";

const POLL_MS = 20_000;
const REOPEN_MS = 5_000;

export class NewPostNotices {
  constructor(onCount, onState = () => {}) {
    this.onCount = onCount;
    this.onState = onState; // "live" (stream open), "polling" or "off"
    this.source = null;
    this.timer = null;
    this.since = null;
    this.stopped = true;
  }

  /** Count posts newer than `since` (a post ID; null: from now). */
  start(since) {
    this.stop();
    this.stopped = false;
    this.since = since;
    this.open();
  }

  stop() {
    this.stopped = true;
    this.onState("off");
    clearTimeout(this.timer);
    if (this.source) this.source.close();
    this.source = null;
  }

  async open() {
    let ticket;
    try {
      ticket = await api("POST", "/v1/streams/tickets");
    } catch {
      if (!this.stopped) this.poll();
      return;
    }
    if (this.stopped) return;
    const url = this.since ? `${ticket.url}&since=${this.since}` : ticket.url;
    const source = new EventSource(url);
    this.source = source;
    source.addEventListener("open", () => this.onState("live"));
    source.addEventListener("new-posts", (event) => {
      const { count, newest_id: newest } = JSON.parse(event.data);
      this.onCount(count, newest);
    });
    // EventSource retries a dropped connection by itself; once it gives up (an expired
    // ticket, too many streams), a new ticket is fetched a little later.
    source.addEventListener("error", () => {
      this.onState("reconnecting");
      if (source.readyState !== EventSource.CLOSED || this.stopped) return;
      this.source = null;
      this.timer = setTimeout(() => this.open(), REOPEN_MS);
    });
  }

  poll() {
    this.onState("polling");
    this.timer = setTimeout(async () => {
      if (this.stopped) return;
      try {
        const found = await api("GET", `/v1/feed/new?since=${this.since || "0"}`);
        this.onCount(found.count, found.newest_id);
      } catch {
        // Offline or limited: the next poll tries again.
      }
      if (!this.stopped) this.open();
    }, POLL_MS);
  }
}
