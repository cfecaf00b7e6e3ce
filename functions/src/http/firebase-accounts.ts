/**
 * `AccountAuth` on Firebase Authentication through firebase-admin, imported on the first
 * sign-in or session check only, so that the functions' cold start does not load it.
 *
 * Settings, read on each use (the local server starts the Auth emulator after the apps exist):
 * - FIREBASE_AUTH_EMULATOR_HOST (`127.0.0.1:9099`): use the Auth emulator, as `npm start`, the
 *   Functions emulator and the tests do; firebase-admin reads it too.
 * - ALMANAC_FIREBASE_API_KEY: the web API key of the Firebase project (public; needed when
 *   deployed, where sign-in is otherwise unavailable).
 * - ALMANAC_FIREBASE_AUTH_DOMAIN: where Google sign-in's helper pages live; by default the host of
 *   the base URL, which Firebase Hosting serves them on (`/__/auth/handler`).
 * - GCLOUD_PROJECT / GOOGLE_CLOUD_PROJECT: the project; `demo-almanac` on a local run.
 */
import type { Auth } from "firebase-admin/auth";
import type { Account, AccountAuth, BrowserAuthConfig } from "./session.js";

/** Firebase's advice: make a session cookie only from a sign-in of the last 5 minutes. */
const RECENT_SIGN_IN_SECONDS = 5 * 60;
const LOCAL_PROJECT = "demo-almanac";

const projectId = (env: NodeJS.ProcessEnv): string => env.GCLOUD_PROJECT ?? env.GOOGLE_CLOUD_PROJECT ?? LOCAL_PROJECT;

/** Errors firebase-admin throws for a token or cookie that is not good: `auth/...` codes. */
const isAuthRefusal = (err: unknown): boolean =>
  typeof err === "object" &&
  err !== null &&
  typeof (err as { code?: unknown }).code === "string" &&
  (err as { code: string }).code.startsWith("auth/");

export function firebaseAccountAuth(baseUrl: string, env: NodeJS.ProcessEnv = process.env): AccountAuth {
  let auth: Promise<Auth> | undefined;
  const admin = (): Promise<Auth> =>
    (auth ??= (async () => {
      const { getApps, initializeApp } = await import("firebase-admin/app");
      const { getAuth } = await import("firebase-admin/auth");
      const app = getApps().find((a) => a.name === "[DEFAULT]") ?? initializeApp({ projectId: projectId(env) });
      return getAuth(app);
    })().catch((err: unknown) => {
      auth = undefined;
      throw err;
    }));

  return {
    async startSession(idToken, expiresInMs) {
      try {
        const a = await admin();
        const decoded = await a.verifyIdToken(idToken, true);
        // An anonymous Firebase user is nobody's account.
        if (decoded.firebase.sign_in_provider === "anonymous") return null;
        if (Date.now() / 1000 - decoded.auth_time > RECENT_SIGN_IN_SECONDS) return null;
        return await a.createSessionCookie(idToken, { expiresIn: expiresInMs });
      } catch (err) {
        if (isAuthRefusal(err)) return null;
        throw err;
      }
    },
    async verifySession(sessionCookie): Promise<Account | null> {
      try {
        // checkRevoked: signing out (revoking the refresh tokens) ends every session at once.
        const decoded = await (await admin()).verifySessionCookie(sessionCookie, true);
        return { uid: decoded.uid, email: decoded.email ?? null };
      } catch (err) {
        if (isAuthRefusal(err)) return null;
        throw err;
      }
    },
    async endSessions(uid) {
      await (await admin()).revokeRefreshTokens(uid);
    },
    browserConfig(): BrowserAuthConfig | null {
      const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST;
      const apiKey = env.ALMANAC_FIREBASE_API_KEY ?? (emulatorHost ? "fake-api-key" : undefined);
      if (!apiKey) return null;
      return {
        apiKey,
        authDomain: env.ALMANAC_FIREBASE_AUTH_DOMAIN ?? new URL(baseUrl).host,
        projectId: projectId(env),
        emulatorUrl: emulatorHost ? `http://${emulatorHost}` : null,
      };
    },
  };
}
