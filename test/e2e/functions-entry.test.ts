/**
 * functions/src/index.ts, the deployed entry point, called as Cloud Functions calls it (the
 * exported handlers, without the emulators): a store that cannot start is answered at once
 * and retried on the next request; logs are structured entries for Cloud Logging.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clearProject, firestoreEmulator, uniqueProject } from "../helpers/firestore-emulator.js";

const entries = vi.hoisted(() => [] as Array<Record<string, unknown>>);
vi.mock("firebase-functions/logger", async (original) => ({
  ...(await original<typeof import("firebase-functions/logger")>()),
  write: (entry: Record<string, unknown>) => void entries.push(entry),
}));

const entry = await import("../../functions/src/index.js");
/** As the Functions Framework calls a function: with Express' request and response (and the raw body it keeps). */
const framework = (fn: typeof entry.api) => express().use((req, res) => void fn(req as Parameters<typeof fn>[0], res));
const api = framework(entry.api);
const pages = framework(entry.pages);

const emulator = await firestoreEmulator();
const saved = { ...process.env };
const project = uniqueProject("entry");

beforeAll(() => {
  // As the Functions emulator runs a function when no Firestore emulator was started.
  process.env.FUNCTIONS_EMULATOR = "true";
  delete process.env.FIRESTORE_EMULATOR_HOST;
  process.env.GCLOUD_PROJECT = project;
  process.env.PUBLIC_BASE_URL = "https://almanac.test";
});
afterAll(async () => {
  process.env = saved;
  if (emulator.host) await clearProject(emulator.host, project);
});

describe("the deployed entry point (functions/src/index.ts)", () => {
  it("answers 503 at once, saying what to set, when the Functions emulator has no Firestore emulator", async () => {
    const res = await request(api).get("/v1/me");
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("1");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body.error.code).toBe("unavailable");
    expect(res.body.error.message).toContain("npm run emulators");
    expect(res.body.error.message).toContain("FIRESTORE_EMULATOR_HOST");

    const page = await request(pages).get("/c/anything");
    expect(page.status).toBe(503);
    expect(page.text).toContain("npm run emulators");
    expect(entries.filter((e) => e.severity === "ERROR").map((e) => String(e.message))).toEqual([
      expect.stringContaining("startup failed: StoreConfigError"),
      expect.stringContaining("startup failed: StoreConfigError"),
    ]);
  });

  const needsEmulator = `${emulator.skipped ? ` [skipped: ${emulator.skipped}]` : ""}`;
  it.skipIf(!emulator.host)(
    `starts on the next request once the store is there: a failed start is not kept${needsEmulator}`,
    async () => {
      process.env.FIRESTORE_EMULATOR_HOST = emulator.host;

      const me = await request(api).get("/v1/me");
      expect(me.status).toBe(401);
      expect(me.headers["cache-control"]).toBe("no-store");
      const minted = await request(api).post("/v1/mint").set("Idempotency-Key", "entry-1").send({ name: "Entry" });
      expect(minted.status, minted.text).toBe(200);
      const page = await request(pages).get(`/c/${minted.body.calendar.slug}`);
      expect(page.status).toBe(200);
    },
  );

  it.skipIf(!emulator.host)(
    `logs each request as a structured entry: severity, message and fields${needsEmulator}`,
    () => {
      const mint = entries.find((e) => typeof e.message === "string" && e.message.startsWith("POST /v1/mint 200 "));
      expect(mint).toMatchObject({
        severity: "INFO",
        method: "POST",
        path: "/v1/mint",
        status: 200,
        latency_ms: expect.any(Number),
      });
      const page = entries.find(
        (e) => e.path === "/c/{slug}" || (typeof e.path === "string" && e.path.startsWith("/c/") && e.status === 200),
      );
      expect(page).toMatchObject({ severity: "INFO", method: "GET", status: 200 });
    },
  );

  it("imports only firebase-functions at load (the cold start and `firebase deploy` load it); the rest on first use", () => {
    const source = readFileSync(join(import.meta.dirname, "../../functions/src/index.ts"), "utf8");
    const staticImports = [...source.matchAll(/^import\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
    expect(staticImports.sort()).toEqual([
      "firebase-functions/logger",
      "firebase-functions/params",
      "firebase-functions/v2/https",
      "firebase-functions/v2/scheduler",
    ]);
  });
});
