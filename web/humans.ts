/**
 * Sign-in on the claim and account pages, in the browser: the Firebase JS SDK signs the human
 * in (Google, or a link sent by email; the Auth emulator on a local run), then hands the ID
 * token to `POST /account/session`, which answers with the session cookie. From then on the
 * server's cookie is the session: the SDK keeps nothing (in-memory persistence) and signs out.
 *
 * scripts/bundle-web.mjs bundles this with the SDK into one module the pages serve from their
 * own origin (`/account/_assets/humans.<hash>.js`), so the CSP needs no CDN. The page hands the
 * settings in `data-` attributes of `#signin`: no inline script. The module also shows the
 * pages' times in the reader's zone (local-times.ts).
 */
import { initializeApp } from "firebase/app";
import {
  browserPopupRedirectResolver,
  connectAuthEmulator,
  GoogleAuthProvider,
  inMemoryPersistence,
  initializeAuth,
  isSignInWithEmailLink,
  sendSignInLinkToEmail,
  signInWithEmailLink,
  signInWithPopup,
  signOut,
  type Auth,
  type User,
} from "firebase/auth";
import { showTimesInReaderZone } from "./local-times.js";

interface AuthConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  emulatorUrl: string | null;
}

/** The address the email link was sent to, for when the human comes back through it. */
const EMAIL_KEY = "almanac.signin.email";

const MESSAGES: Record<string, string> = {
  "auth/popup-blocked": "The browser blocked the sign-in window. Allow pop-ups for this site and try again.",
  "auth/popup-closed-by-user": "The sign-in window was closed before you finished. Try again.",
  "auth/cancelled-popup-request": "Another sign-in window is open. Finish it, or try again.",
  "auth/network-request-failed": "The sign-in service could not be reached. Check your connection and try again.",
  "auth/invalid-action-code": "This sign-in link was already used or has expired. Ask for a new one below.",
  "auth/expired-action-code": "This sign-in link has expired. Ask for a new one below.",
  "auth/invalid-email": "That email address does not look right. Check it and try again.",
  "auth/operation-not-allowed": "This way of signing in is not enabled for this service. Try the other one.",
};

const messageOf = (err: unknown): string => {
  const code = (err as { code?: string } | null)?.code ?? "";
  return MESSAGES[code] ?? "Sign-in did not work. Reload the page and try again.";
};

/**
 * This page without the query the email link adds (oobCode, apiKey, mode...), keeping `next`:
 * where the account page sends a human who signed in to open a calendar.
 */
function pageUrl(): string {
  const next = new URLSearchParams(location.search).get("next");
  const query = next ? `?next=${encodeURIComponent(next)}` : "";
  return `${location.origin}${location.pathname}${query}`;
}

showTimesInReaderZone();
const root = document.getElementById("signin");
if (root) start(root);

function start(root: HTMLElement): void {
  const status = root.querySelector<HTMLElement>("#signin-status");
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  const config = JSON.parse(root.dataset.auth ?? "null") as AuthConfig | null;
  if (!config) return;
  const csrf = root.dataset.csrf ?? "";
  const app = initializeApp({ apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId });
  const auth = initializeAuth(app, {
    persistence: inMemoryPersistence,
    popupRedirectResolver: browserPopupRedirectResolver,
  });
  if (config.emulatorUrl) connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
  root.querySelector("#signin-controls")?.removeAttribute("hidden");

  const busy = (on: boolean) => {
    for (const button of root.querySelectorAll("button")) button.disabled = on;
  };

  /** Trades the SDK's ID token for the server's session cookie, then reloads the page signed in. */
  async function finish(user: User): Promise<void> {
    say("Signing you in…");
    const idToken = await user.getIdToken();
    const res = await fetch("/account/session", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ id_token: idToken, csrf }),
      credentials: "same-origin",
    });
    await signOut(auth);
    if (!res.ok) {
      say((await res.text()) || "Sign-in did not work. Reload the page and try again.");
      busy(false);
      return;
    }
    localStorage.removeItem(EMAIL_KEY);
    location.replace(pageUrl());
  }

  async function attempt(step: () => Promise<void>): Promise<void> {
    busy(true);
    try {
      await step();
    } catch (err) {
      say(messageOf(err));
      busy(false);
    }
  }

  root.querySelector("#signin-google")?.addEventListener("click", () => {
    void attempt(async () => finish((await signInWithPopup(auth, new GoogleAuthProvider())).user));
  });

  const form = root.querySelector<HTMLFormElement>("#signin-email");
  const input = root.querySelector<HTMLInputElement>("#signin-email-address");
  const returning = isSignInWithEmailLink(auth, location.href);
  if (returning) {
    const email = localStorage.getItem(EMAIL_KEY);
    if (email) void attempt(async () => finish((await signInWithEmailLink(auth, email, location.href)).user));
    else say("Enter the email address the sign-in link was sent to, to finish signing in.");
  }
  form?.addEventListener("submit", (event) => {
    event.preventDefault();
    const email = input?.value.trim() ?? "";
    if (!email) return;
    if (returning) {
      void attempt(async () => finish((await signInWithEmailLink(auth, email, location.href)).user));
      return;
    }
    void attempt(async () => {
      await sendSignInLinkToEmail(auth, email, { url: pageUrl(), handleCodeInApp: true });
      localStorage.setItem(EMAIL_KEY, email);
      say(`We sent a sign-in link to ${email}. Open it in this browser to finish signing in.`);
      busy(false);
      if (config.emulatorUrl) await showEmulatorLink(auth, config, email);
    });
  });

  /** The Auth emulator sends no email: it keeps the link, and the page shows it. */
  async function showEmulatorLink(auth: Auth, config: AuthConfig, email: string): Promise<void> {
    const res = await fetch(`${config.emulatorUrl}/emulator/v1/projects/${config.projectId}/oobCodes`);
    const { oobCodes = [] } = (await res.json()) as {
      oobCodes?: Array<{ email: string; oobLink: string; requestType: string }>;
    };
    const latest = oobCodes.filter((c) => c.email === email && c.requestType === "EMAIL_SIGNIN").pop();
    const slot = root.querySelector<HTMLElement>("#signin-emulator-link");
    if (!latest || !slot || auth.currentUser) return;
    const link = document.createElement("a");
    link.href = latest.oobLink;
    link.textContent = `Open the sign-in link for ${email}`;
    slot.replaceChildren(link);
    slot.hidden = false;
  }
}
