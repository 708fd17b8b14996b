// Sign in and sign up. A new account is signed in right away.

import { ApiError, api, session } from "./api.js";
import { h } from "./dom.js";
import { describe } from "./status.js";

function field(id, label, props) {
  return [h("label", { for: id }, label), h("input", { id, name: id, required: true, ...props })];
}

export async function signIn(username, password) {
  const created = await api("POST", "/v1/sessions", { body: { username, password } });
  session.save(created.token, { id: created.user_id, username });
  const me = await api("GET", "/v1/me");
  session.remember({ id: me.id, username: me.username });
}

export function authView(main, mode) {
  const signingUp = mode === "signup";
  const error = h("p", { class: "form-error", role: "alert" });
  const inputs = [
    ...field("username", "Username", { autocomplete: "username", minlength: 3, maxlength: 32, pattern: "[A-Za-z0-9_]+", autocapitalize: "none", spellcheck: "false" }),
    ...(signingUp ? [h("label", { for: "display_name" }, "Display name (optional)"), h("input", { id: "display_name", maxlength: 64, autocomplete: "nickname" })] : []),
    ...field("password", signingUp ? "Password (at least 8 characters)" : "Password", { type: "password", autocomplete: signingUp ? "new-password" : "current-password", minlength: signingUp ? 8 : null, maxlength: 256 }),
  ];
  const submit = h("button", { type: "submit", class: "primary" }, signingUp ? "Create account" : "Log in");
  const form = h("form", { class: "panel auth", "aria-labelledby": "auth-title" }, h("h1", { id: "auth-title" }, signingUp ? "Create your account" : "Log in to feedloom"), inputs, error, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = (id) => form.querySelector(`#${id}`).value;
    submit.disabled = true;
    error.textContent = "";
    try {
      if (signingUp) {
        await api("POST", "/v1/accounts", { body: { username: value("username"), password: value("password"), display_name: value("display_name") } });
      }
      await signIn(value("username"), value("password"));
      location.hash = "#/";
    } catch (failure) {
      error.textContent = failure instanceof ApiError && failure.status === 401 ? "Wrong username or password." : describe(failure);
    } finally {
      submit.disabled = false;
    }
  });
  const other = signingUp
    ? h("p", {}, "Have an account? ", h("a", { href: "#/login" }, "Log in"))
    : h("p", {}, "New here? ", h("a", { href: "#/signup" }, "Create an account"));
  // Only a server running the demo says so (api/web.py): production pages show no login.
  const demoRuns = document.querySelector('meta[name="feedloom-demo"]') !== null;
  const demo = signingUp || !demoRuns ? null : h("p", { class: "hint" }, "Running the demo (./scripts/serve)? Log in as ", h("code", {}, "demo"), " with password ", h("code", {}, "demo-password"), ".");
  main.replaceChildren(form, h("div", { class: "auth-foot" }, other, demo));
  form.querySelector("#username").focus();
}
