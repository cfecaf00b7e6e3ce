/**
 * The configuration: every environment variable of docs/configuration.md, read once at start
 * into one typed object. The composition roots call `readConfig(process.env)` (server.ts for
 * the local server, index.ts for the deployed functions) and hand the object down on
 * `deps.config`; nothing below the entry layer reads `process.env` (eslint.config.js refuses it).
 * Each layer sees its part in its own terms: `DomainConfig` (domain/config.ts), `HttpConfig`
 * (http/config.ts), `FirestoreSettings` (storage/index.ts).
 *
 * A value that is not what its variable takes stops the start with one line naming the variable
 * and the value (`ConfigError`): the local server prints it and exits, a deployed function
 * answers 503 and logs it. `ALMANAC_AUTH_EMULATOR` and `ALMANAC_AUTH_EMULATOR_PORT` are read by
 * local-auth.ts, part of the local entry: a bad port there turns sign-in off, not the server.
 */
import { changeFeedLimits, type DomainConfig } from "./domain/config.js";
import type { QuotaName } from "./domain/quota-limits.js";
import { DEFAULT_QUOTAS } from "./domain/quotas.js";
import { DEFAULT_SHARDS } from "./domain/revision.js";
import { DEFAULT_ANONYMOUS_READS_AT_ONCE, DEFAULT_RATE_LIMITS, type HttpConfig } from "./http/config.js";
import type { FirestoreSettings } from "./storage/index.js";

export interface Config extends HttpConfig {
  /**
   * `PUBLIC_BASE_URL` without trailing slashes, or null for the composition root's default:
   * `http://localhost:$PORT` locally, `https://<project>.web.app` deployed.
   */
  publicBaseUrl: string | null;
  /** `GCLOUD_PROJECT`, else `GOOGLE_CLOUD_PROJECT`, else `demo-almanac`. */
  projectId: string;
  /** Where the deployed functions find Firestore (storage/index.ts). */
  firestore: FirestoreSettings;
}

/** A variable set to a value it does not take: the message is one line, naming both. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** The variable that sets each rate limit; the window it counts in is fixed (docs/api.md#rate-limits). */
export const RATE_LIMIT_VARIABLES = {
  mint: "RATE_LIMIT_MINT_PER_HOUR",
  writes: "RATE_LIMIT_WRITES_PER_MINUTE",
  reads: "RATE_LIMIT_READS_PER_MINUTE",
  pages: "RATE_LIMIT_PAGES_PER_MINUTE",
} as const;

/** `QUOTA_EVENTS_PER_CALENDAR=20000` and so on: the quota's name in upper case. */
export const quotaVariable = (quota: QuotaName): string => `QUOTA_${quota.toUpperCase()}`;

export const REVISION_SHARDS_VARIABLE = "ALMANAC_REVISION_SHARDS";
export const CURSOR_SECRET_VARIABLE = "ALMANAC_CHANGE_CURSOR_SECRET";
/** A change-feed cursor key given in the environment has at least this many characters. */
export const MIN_CURSOR_SECRET_LENGTH = 32;
const MAX_SHARDS = 64;
const LOCAL_PROJECT = "demo-almanac";

/** The configuration from `env` (the process's environment, or a test's variables). Throws ConfigError. */
export function readConfig(env: Env): Config {
  const text = (name: string): string | null => {
    const value = env[name]?.trim();
    return value === undefined || value === "" ? null : value;
  };
  const wholeNumber = (name: string, min: number, max: number, range: string): number | null => {
    const raw = text(name);
    if (raw === null) return null;
    const value = Number(raw);
    if (!/^[0-9]+$/.test(raw) || value < min || value > max)
      throw new ConfigError(`${name} must be a whole number ${range}, not "${env[name]}"`);
    return value;
  };
  const atLeastOne = (name: string) => wholeNumber(name, 1, Number.MAX_SAFE_INTEGER, "of at least 1");
  const onOff = (name: string, fallback: boolean, also: { on: string[]; off: string[] } = { on: [], off: [] }) => {
    const raw = text(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (raw === "on" || also.on.includes(raw)) return true;
    if (raw === "off" || also.off.includes(raw)) return false;
    throw new ConfigError(`${name} must be "on" or "off", not "${env[name]}"`);
  };

  const rateLimitsOn = onOff("RATE_LIMITS", true, { on: ["true", "1"], off: ["false", "0"] });
  const rateLimits = { ...DEFAULT_RATE_LIMITS, enabled: rateLimitsOn };
  for (const kind of Object.keys(RATE_LIMIT_VARIABLES) as Array<keyof typeof RATE_LIMIT_VARIABLES>) {
    const limit = atLeastOne(RATE_LIMIT_VARIABLES[kind]);
    if (limit !== null) rateLimits[kind] = { ...rateLimits[kind], limit };
  }
  const anonymousReads = atLeastOne("ANONYMOUS_READS_AT_ONCE") ?? DEFAULT_ANONYMOUS_READS_AT_ONCE;

  const quotas = { ...DEFAULT_QUOTAS };
  for (const quota of Object.keys(quotas) as QuotaName[]) {
    const limit = atLeastOne(quotaVariable(quota));
    if (limit !== null) quotas[quota] = limit;
  }

  // The secret is not trimmed (its characters are the key) and never repeated in a message.
  const secret = env[CURSOR_SECRET_VARIABLE] || null;
  if (secret !== null && secret.length < MIN_CURSOR_SECRET_LENGTH)
    throw new ConfigError(
      `${CURSOR_SECRET_VARIABLE} must be at least ${MIN_CURSOR_SECRET_LENGTH} characters, not ${secret.length}`,
    );

  const baseUrl = text("PUBLIC_BASE_URL");
  if (baseUrl !== null && !/^https?:$/.test(protocolOf(baseUrl)))
    throw new ConfigError(`PUBLIC_BASE_URL must be an http(s) URL such as https://almanac.example, not "${baseUrl}"`);

  const projectId = text("GCLOUD_PROJECT") ?? text("GOOGLE_CLOUD_PROJECT") ?? LOCAL_PROJECT;
  const domain: DomainConfig = {
    quotas,
    revisionShards: wholeNumber(REVISION_SHARDS_VARIABLE, 1, MAX_SHARDS, `from 1 to ${MAX_SHARDS}`) ?? DEFAULT_SHARDS,
    changeCursorSecret: secret,
    changeFeed: changeFeedLimits({
      timeoutSeconds: atLeastOne("ALMANAC_TIMEOUT_SECONDS"),
      concurrency: atLeastOne("ALMANAC_CONCURRENCY"),
    }),
    webhooks: { allowLoopback: onOff("WEBHOOKS_ALLOW_LOOPBACK", false) },
  };
  return {
    ...domain,
    rateLimits,
    anonymousReadsAtOnce: rateLimitsOn ? anonymousReads : null,
    trustProxy: wholeNumber("TRUST_PROXY_HOPS", 1, 99, "from 1 to 99") ?? true,
    firebase: {
      apiKey: text("ALMANAC_FIREBASE_API_KEY"),
      authDomain: text("ALMANAC_FIREBASE_AUTH_DOMAIN"),
      projectId,
      // Set by npm start once its Auth emulator runs, and removed when it stops (local-auth.ts).
      authEmulatorHost: () => text("FIREBASE_AUTH_EMULATOR_HOST"),
    },
    publicBaseUrl: baseUrl?.replace(/\/+$/, "") ?? null,
    projectId,
    firestore: {
      projectId,
      functionsEmulator: env.FUNCTIONS_EMULATOR === "true",
      emulatorHost: text("FIRESTORE_EMULATOR_HOST"),
    },
  };
}

function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return "";
  }
}

/**
 * Where `npm start` listens and keeps its data (`PORT`, 8787; `DATA_DIR`, `./.data`), read by
 * server.ts's `main` only: deployed, `PORT` is the platform's (a socket path in the Functions
 * emulator), not a setting of ours.
 */
export function readLocalServer(env: Env): { port: number; dataDir: string } {
  const raw = env.PORT?.trim();
  const port = raw ? Number(raw) : 8787;
  if (raw && (!/^[0-9]+$/.test(raw) || port < 1 || port > 65_535))
    throw new ConfigError(`PORT must be a whole number from 1 to 65535, not "${env.PORT}"`);
  return { port, dataDir: env.DATA_DIR?.trim() || "./.data" };
}

/** Every setting at its default, as with an empty environment. */
export const defaultConfig = (): Config => readConfig({});
