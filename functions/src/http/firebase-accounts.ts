/**
 * `AccountAuth` on Firebase Authentication through firebase-admin, imported on the first
 * sign-in or session check only, so that the functions' cold start does not load it.
 *
 * Settings: `FirebaseAccountSettings`, read at start into `config.firebase` (functions/src/config.ts).
 */
import type { Auth } from "firebase-admin/auth";
import type { Account, AccountAuth, BrowserAuthConfig } from "./session.js";

/** Firebase's advice: make a session cookie only from a sign-in of the last 5 minutes. */
const RECENT_SIGN_IN_SECONDS = 5 * 60;

export interface FirebaseAccountSettings {
  /** `ALMANAC_FIREBASE_API_KEY`: the project's web API key (public; needed when deployed, else sign-in is off). */
  apiKey: string | null;
  /**
   * `ALMANAC_FIREBASE_AUTH_DOMAIN`: where Google sign-in's helper pages live; null for the host
   * of the base URL, which Firebase Hosting serves them on (`/__/auth/handler`).
   */
  authDomain: string | null;
  /** `GCLOUD_PROJECT`, else `GOOGLE_CLOUD_PROJECT`, else `demo-almanac` (a local run). */
  projectId: string;
  /**
   * `FIREBASE_AUTH_EMULATOR_HOST` (`127.0.0.1:9099`), or null: the Auth emulator in use, as
   * `npm start`, the Functions emulator and the tests use it (firebase-admin reads the variable
   * itself). Asked at each use, not kept: `npm start` starts its emulator after the apps exist,
   * and it says the emulator's host only once it runs (local-auth.ts).
   */
  authEmulatorHost: () => string | null;
}

/** Errors firebase-admin throws for a token or cookie that is not good: `auth/...` codes. */
const isAuthRefusal = (err: unknown): boolean =>
  typeof err === "object" &&
  err !== null &&
  typeof (err as { code?: unknown }).code === "string" &&
  (err as { code: string }).code.startsWith("auth/");

export function firebaseAccountAuth(baseUrl: string, settings: FirebaseAccountSettings): AccountAuth {
  let auth: Promise<Auth> | undefined;
  const admin = (): Promise<Auth> =>
    (auth ??= (async () => {
      const { getApps, initializeApp } = await import("firebase-admin/app");
      const { getAuth } = await import("firebase-admin/auth");
      const app = getApps().find((a) => a.name === "[DEFAULT]") ?? initializeApp({ projectId: settings.projectId });
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
      const emulatorHost = settings.authEmulatorHost();
      const apiKey = settings.apiKey ?? (emulatorHost ? "fake-api-key" : null);
      if (!apiKey) return null;
      return {
        apiKey,
        authDomain: settings.authDomain ?? new URL(baseUrl).host,
        projectId: settings.projectId,
        emulatorUrl: emulatorHost ? `http://${emulatorHost}` : null,
      };
    },
  };
}
