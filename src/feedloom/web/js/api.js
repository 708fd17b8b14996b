// The /v1 API as the client sees it: bearer token, JSON in and out, problem+json errors
// turned into ApiError (status, detail, Retry-After), a failed network into OfflineError.

const TOKEN = "feedloom.token";
const USER = "feedloom.user";

export class ApiError extends Error {
  constructor(status, problem, retryAfter) {
    super((problem && problem.detail) || `request failed (${status})`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

export class OfflineError extends Error {
  constructor() {
    super("You appear to be offline.");
  }
}

export const session = {
  get token() {
    return localStorage.getItem(TOKEN);
  },
  get user() {
    const raw = localStorage.getItem(USER);
    return raw ? JSON.parse(raw) : null;
  },
  save(token, user) {
    localStorage.setItem(TOKEN, token);
    localStorage.setItem(USER, JSON.stringify(user));
  },
  remember(user) {
    localStorage.setItem(USER, JSON.stringify(user));
  },
  clear() {
    localStorage.removeItem(TOKEN);
    localStorage.removeItem(USER);
  },
};

let signedOut = () => {};

/** Called when the server no longer accepts the token (401): back to the login page. */
export function onSignedOut(callback) {
  signedOut = callback;
}

function authHeaders() {
  return session.token ? { Authorization: `Bearer ${session.token}` } : {};
}

export async function api(method, path, { body, headers = {}, signal } = {}) {
  const init = { method, signal, headers: { Accept: "application/json", ...authHeaders(), ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new OfflineError();
  }
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const retryAfter = Number(response.headers.get("Retry-After")) || null;
    if (response.status === 401 && session.token) {
      session.clear();
      signedOut();
    }
    throw new ApiError(response.status, data, retryAfter);
  }
  return data;
}

/**
 * PUT bytes to an upload URL with progress (fetch cannot report upload progress), with
 * the headers the ticket names. The bearer token goes only to this server: an upload URL
 * on another origin is a bucket's presigned URL, which must get no token of ours.
 */
export function upload(url, file, onProgress, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", url);
    const own = new URL(url, location.href).origin === location.origin;
    const sent = { "Content-Type": file.type, ...headers, ...(own ? authHeaders() : {}) };
    for (const [name, value] of Object.entries(sent)) request.setRequestHeader(name, value);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let problem = null;
      try {
        problem = JSON.parse(request.responseText);
      } catch {
        problem = null;
      }
      reject(new ApiError(request.status, problem, Number(request.getResponseHeader("Retry-After")) || null));
    });
    request.addEventListener("error", () => reject(new OfflineError()));
    request.send(file);
  });
}

let capabilities = null;

/** This server's limits, read once from GET /v1/limits (a few numbers). The optional
 * endpoints (password change, account and comment deletion) are assumed; a 404/405
 * from one disables its control. */
export async function serverCapabilities() {
  if (capabilities === null) {
    capabilities = api("GET", "/v1/limits").then(readCapabilities, (error) => {
      capabilities = null;
      throw error;
    });
  }
  return capabilities;
}

function readCapabilities(limits) {
  return {
    postMaxChars: limits.post_max_chars,
    mediaPerPost: limits.media_per_post,
    mediaMaxBytes: limits.media_max_bytes,
    mediaTypes: limits.media_types,
    commentMaxChars: limits.comment_max_chars,
    bioMaxChars: limits.bio_max_chars,
    changePassword: true,
    deleteAccount: true,
    deleteComment: true,
  };
}

/** A random Idempotency-Key (crypto.randomUUID needs a secure context; this does not). */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
