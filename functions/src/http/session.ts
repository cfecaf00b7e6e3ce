/**
 * The humans' session on the claim and account pages (docs/api.md#humans-claims-and-accounts): one cookie,
 * `__session` (the only cookie Firebase Hosting passes to a function), HttpOnly, SameSite=Lax,
 * Secure except on localhost. It holds a random CSRF secret, and once signed in, after a dot,
 * the Firebase session cookie that `AccountAuth` made from an ID token. Every state-changing
 * form carries `csrf`, a hash of the secret, which a page of another site can neither read
 * nor compute; signing in gets a new secret.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { randomString } from "../domain/ids.js";

export const SESSION_COOKIE = "__session";
/** How long a signed-in session lasts (Firebase allows 5 minutes to 2 weeks). */
export const SESSION_DAYS = 5;
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;

/** A signed-in human: a Firebase Authentication user. The service never sees a password. */
export interface Account {
  uid: string;
  email: string | null;
}

/** What the pages hand the Firebase JS SDK in the browser (all of it public). */
export interface BrowserAuthConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  /** `http://host:port` of the Auth emulator, on a local run and in tests; null when deployed. */
  emulatorUrl: string | null;
}

/**
 * Firebase Authentication as the pages need it (http/firebase-accounts.ts); tests may pass
 * their own. Every method answers null for a token or cookie that is not (or no longer) good.
 */
export interface AccountAuth {
  /** A session cookie for an ID token from a recent sign-in, or null. */
  startSession(idToken: string, expiresInMs: number): Promise<string | null>;
  /** The account of a session cookie that is still valid (not expired, not signed out), or null. */
  verifySession(sessionCookie: string): Promise<Account | null>;
  /** Signs the account out everywhere: its session cookies stop verifying. */
  endSessions(uid: string): Promise<void>;
  /** The browser SDK's settings; null when sign-in is not configured on this deployment. */
  browserConfig(): BrowserAuthConfig | null;
}

export interface PageSession {
  /** The value forms carry as `csrf`. */
  csrf: string;
  account: Account | null;
}

const SECRET = /^[A-Za-z0-9]{32}$/;

function readCookie(req: Request): { secret: string; firebase: string | null } | null {
  const header = req.headers.cookie ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== SESSION_COOKIE) continue;
    const value = decodeURIComponent(rest.join("="));
    const dot = value.indexOf(".");
    const secret = dot === -1 ? value : value.slice(0, dot);
    if (!SECRET.test(secret)) return null;
    return { secret, firebase: dot === -1 ? null : value.slice(dot + 1) || null };
  }
  return null;
}

/** Secure everywhere but on a loopback address, where a browser is on plain http. */
export const secureCookies = (baseUrl: string): boolean =>
  !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(baseUrl);

function writeCookie(res: Response, baseUrl: string, value: string, maxAgeMs: number | null): void {
  res.cookie(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(baseUrl),
    path: "/",
    ...(maxAgeMs === null ? {} : { maxAge: maxAgeMs }),
  });
}

export const csrfOf = (secret: string): string => createHash("sha256").update(`almanac-csrf:${secret}`).digest("hex");

/**
 * The caller's session: a fresh CSRF secret when there is none (set on the answer), and the
 * signed-in account when the Firebase session cookie still verifies.
 */
export async function readSession(
  req: Request,
  res: Response,
  auth: AccountAuth,
  baseUrl: string,
): Promise<PageSession> {
  const cookie = readCookie(req);
  if (!cookie) {
    const secret = randomString(32);
    writeCookie(res, baseUrl, secret, null);
    return { csrf: csrfOf(secret), account: null };
  }
  const account = cookie.firebase ? await auth.verifySession(cookie.firebase) : null;
  // A session that no longer verifies (expired, signed out elsewhere) is dropped.
  if (cookie.firebase && !account) writeCookie(res, baseUrl, cookie.secret, null);
  return { csrf: csrfOf(cookie.secret), account };
}

/** Whether a form's `csrf` matches the caller's cookie (false without either). */
export function csrfMatches(req: Request, sent: unknown): boolean {
  const cookie = readCookie(req);
  if (!cookie || typeof sent !== "string") return false;
  const expected = Buffer.from(csrfOf(cookie.secret));
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Signs in: a new CSRF secret beside the Firebase session cookie, for SESSION_DAYS. */
export function startSessionCookie(res: Response, baseUrl: string, firebaseSession: string): void {
  writeCookie(res, baseUrl, `${randomString(32)}.${firebaseSession}`, SESSION_MS);
}

/** Signs out on this browser: a new secret, no session. */
export function endSessionCookie(res: Response, baseUrl: string): void {
  writeCookie(res, baseUrl, randomString(32), null);
}

/** The session's length, for `AccountAuth.startSession`. */
export const SESSION_LENGTH_MS = SESSION_MS;

/** The Firebase session cookie of the request, for signing out. */
export const firebaseSessionOf = (req: Request): string | null => readCookie(req)?.firebase ?? null;
