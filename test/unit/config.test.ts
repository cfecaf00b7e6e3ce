/**
 * The configuration (functions/src/config.ts): every variable of docs/configuration.md read once
 * into one typed object, its defaults, and a bad value refused with one line naming the
 * variable. The settings of each part have their own tests beside it (quotas, rate limits,
 * revision shards, the change-feed cursor key and limits).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, defaultConfig, readConfig, readLocalServer } from "../../functions/src/config.js";
import { DEFAULT_QUOTAS } from "../../functions/src/domain/quotas.js";
import { DEFAULT_SHARDS } from "../../functions/src/domain/revision.js";
import { DEFAULT_ANONYMOUS_READS_AT_ONCE } from "../../functions/src/http/expensive-reads.js";
import { DEFAULT_RATE_LIMITS } from "../../functions/src/http/rate-limit.js";

const ROOT = join(import.meta.dirname, "../..");

/** The variables docs/configuration.md documents: the first cell of each table row. */
const documented = (): string[] =>
  [...readFileSync(join(ROOT, "docs/configuration.md"), "utf8").matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);

describe("readConfig", () => {
  it("with nothing set, every setting is its documented default", () => {
    const config = defaultConfig();
    expect(config).toMatchObject({
      quotas: DEFAULT_QUOTAS,
      revisionShards: DEFAULT_SHARDS,
      changeCursorSecret: null,
      changeFeed: { maxHoldSeconds: 60, maxWaiters: Infinity },
      webhooks: { allowLoopback: false },
      rateLimits: DEFAULT_RATE_LIMITS,
      anonymousReadsAtOnce: DEFAULT_ANONYMOUS_READS_AT_ONCE,
      trustProxy: true,
      firebase: { apiKey: null, authDomain: null, projectId: "demo-almanac" },
      publicBaseUrl: null,
      projectId: "demo-almanac",
      firestore: { projectId: "demo-almanac", functionsEmulator: false, emulatorHost: null },
    });
    expect(config.firebase.authEmulatorHost()).toBeNull();
  });

  it("reads every variable docs/configuration.md lists (the local Auth emulator's are local-auth.ts's)", () => {
    const asked = new Set<string>();
    const env = new Proxy<Record<string, string | undefined>>(
      {},
      {
        get: (_target, name) => {
          if (typeof name === "string") asked.add(name);
          return undefined;
        },
      },
    );
    readConfig(env).firebase.authEmulatorHost();
    const localAuth = readFileSync(join(ROOT, "functions/src/local-auth.ts"), "utf8");
    const unread = documented().filter((name) => !asked.has(name) && !localAuth.includes(name));
    expect(documented().length).toBeGreaterThan(20);
    expect(unread).toEqual([]);
  });

  it("takes the server, sign-in and deployment settings", () => {
    const config = readConfig({
      PORT: "9000",
      DATA_DIR: "/var/almanac",
      PUBLIC_BASE_URL: "https://almanac.example//",
      WEBHOOKS_ALLOW_LOOPBACK: "on",
      ANONYMOUS_READS_AT_ONCE: "2",
      ALMANAC_FIREBASE_API_KEY: "key",
      ALMANAC_FIREBASE_AUTH_DOMAIN: "auth.example",
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
      GOOGLE_CLOUD_PROJECT: "almanac-prod",
      FUNCTIONS_EMULATOR: "true",
      FIRESTORE_EMULATOR_HOST: "127.0.0.1:8080",
    });
    expect(config).toMatchObject({
      publicBaseUrl: "https://almanac.example",
      webhooks: { allowLoopback: true },
      anonymousReadsAtOnce: 2,
      firebase: { apiKey: "key", authDomain: "auth.example", projectId: "almanac-prod" },
      projectId: "almanac-prod",
      firestore: { projectId: "almanac-prod", functionsEmulator: true, emulatorHost: "127.0.0.1:8080" },
    });
    expect(config.firebase.authEmulatorHost()).toBe("127.0.0.1:9099");
    expect(readConfig({ GCLOUD_PROJECT: "first", GOOGLE_CLOUD_PROJECT: "second" }).projectId).toBe("first");
  });

  it("asks for the Auth emulator's host at each use: npm start knows it only once its emulator runs", () => {
    const env: Record<string, string | undefined> = {};
    const config = readConfig(env);
    expect(config.firebase.authEmulatorHost()).toBeNull();
    env.FIREBASE_AUTH_EMULATOR_HOST = "127.0.0.1:9100";
    expect(config.firebase.authEmulatorHost()).toBe("127.0.0.1:9100");
  });

  it("reads the local server's port and data directory apart: deployed, PORT is the platform's", () => {
    expect(readLocalServer({})).toEqual({ port: 8787, dataDir: "./.data" });
    expect(readLocalServer({ PORT: "9000", DATA_DIR: "/var/almanac" })).toEqual({
      port: 9000,
      dataDir: "/var/almanac",
    });
    expect(() => readLocalServer({ PORT: "eighty" })).toThrow(
      /^PORT must be a whole number from 1 to 65535, not "eighty"$/,
    );
    // The Functions emulator's PORT is a socket path: the deployed configuration never reads it.
    expect(() => readConfig({ PORT: "/tmp/fire_emu.sock" })).not.toThrow();
  });

  it("gives no places to anonymous expensive reads when rate limits are off", () => {
    expect(readConfig({ RATE_LIMITS: "off", ANONYMOUS_READS_AT_ONCE: "2" }).anonymousReadsAtOnce).toBeNull();
  });

  it("refuses a bad value with one line naming the variable and the value", () => {
    const bad: Record<string, string> = {
      PUBLIC_BASE_URL: "almanac.example",
      RATE_LIMITS: "sometimes",
      RATE_LIMIT_MINT_PER_HOUR: "0",
      ANONYMOUS_READS_AT_ONCE: "many",
      TRUST_PROXY_HOPS: "all",
      ALMANAC_REVISION_SHARDS: "65",
      ALMANAC_CHANGE_CURSOR_SECRET: "short",
      WEBHOOKS_ALLOW_LOOPBACK: "yes",
      QUOTA_EVENTS_PER_CALENDAR: "-1",
      ALMANAC_TIMEOUT_SECONDS: "1m",
    };
    for (const [name, value] of Object.entries(bad)) {
      let thrown: unknown;
      try {
        readConfig({ [name]: value });
      } catch (err) {
        thrown = err;
      }
      expect(thrown, name).toBeInstanceOf(ConfigError);
      const message = (thrown as Error).message;
      expect(message.startsWith(`${name} must be`), message).toBe(true);
      expect(message).not.toContain("\n");
      if (name !== "ALMANAC_CHANGE_CURSOR_SECRET") expect(message).toContain(`"${value}"`);
    }
  });
});
