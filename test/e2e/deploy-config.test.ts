/**
 * What `firebase deploy` would do with the repository, checked offline with firebase-tools'
 * own code: the functions' options as the deploy resolves them from the params in
 * functions/src/index.ts and functions/.env, the runtime, and firestore.indexes.json (TTL
 * policies and index exemptions, docs/api.md#exactly-once-and-retention).
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const readJson = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));
const requireTool = createRequire(import.meta.url);
const run = promisify(execFile);
/** The scheduled functions: every minute, one instance at a time. */
const SCHEDULED = ["alarms", "feeds", "purges", "webhooks"];

interface FieldOverride {
  collectionGroup: string;
  fieldPath: string;
  ttl?: boolean;
  indexes: unknown[];
}

describe("firestore.indexes.json", () => {
  const spec = readJson("firestore.indexes.json") as { indexes: unknown[]; fieldOverrides: FieldOverride[] };
  const override = (collection: string, field: string) =>
    spec.fieldOverrides.find((f) => f.collectionGroup === collection && f.fieldPath === field);

  it("passes the validator `firebase deploy --only firestore:indexes` runs", () => {
    const { FirestoreApi } = createRequire(import.meta.url)("firebase-tools/lib/firestore/api.js");
    expect(() => new FirestoreApi().validateSpec(spec)).not.toThrow();
  });

  it("purges idempotency records, claim links, onboard tokens and change-feed changes on their `purge_at` Timestamp", () => {
    for (const collection of ["idempotency", "claims", "onboard_tokens", "changes"]) {
      // A TTL field is written with ever later instants and never queried: no index on it.
      expect(override(collection, "purge_at"), collection).toEqual({
        collectionGroup: collection,
        fieldPath: "purge_at",
        ttl: true,
        indexes: [],
      });
    }
  });

  it("keeps the idempotency collection's ever-increasing timestamps and stored responses out of the indexes", () => {
    for (const field of ["started_at", "expires_at", "body"])
      expect(override("idempotency", field)?.indexes, field).toEqual([]);
  });
});

describe("the deployed functions' options", () => {
  const PROJECT = "demo-almanac";
  let dir: string;
  let manifest: Record<string, unknown>;

  /**
   * A copy of functions/ (package.json, .env, a fresh dist/ from the deploy's own bundler), so
   * that no other build is disturbed: what `firebase deploy` uploads and reads.
   */
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "almanac-manifest-"));
    await run(process.execPath, [join(ROOT, "scripts/bundle.mjs"), join(dir, "dist")]);
    for (const file of ["package.json", ".env"]) copyFileSync(join(ROOT, "functions", file), join(dir, file));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    // What the CLI runs to list the functions: the SDK loads package.json's `main` (the bundle)
    // and writes the manifest.
    const output = join(dir, "manifest.json");
    await run(join(ROOT, "node_modules/.bin/firebase-functions"), [], {
      cwd: dir,
      env: {
        ...process.env,
        FUNCTIONS_MANIFEST_OUTPUT_PATH: output,
        FUNCTIONS_CONTROL_API: "true",
        GCLOUD_PROJECT: PROJECT,
      },
    });
    manifest = JSON.parse(readFileSync(output, "utf8"));
  }, 120_000);
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  async function resolve(userEnvs: Record<string, string>) {
    const { yamlToBuild } = requireTool("firebase-tools/lib/deploy/functions/runtimes/discovery/index.js");
    const { resolveBackend } = requireTool("firebase-tools/lib/deploy/functions/build.js");
    const { allEndpoints } = requireTool("firebase-tools/lib/deploy/functions/backend.js");
    const { endpointsAreValid } = requireTool("firebase-tools/lib/deploy/functions/validate.js");
    const build = yamlToBuild(manifest, PROJECT, "us-central1", "nodejs22");
    // nonInteractive, as in CI: a param without a value would fail here instead of prompting.
    const { backend } = await resolveBackend({
      build,
      firebaseConfig: { projectId: PROJECT },
      userEnvs,
      codebase: "default",
      nonInteractive: true,
      isEmulator: false,
    });
    endpointsAreValid(backend);
    return allEndpoints(backend) as Array<Record<string, unknown>>;
  }

  const loadEnv = () => {
    const { loadUserEnvs } = requireTool("firebase-tools/lib/functions/env.js");
    return loadUserEnvs({
      functionsSource: join(ROOT, "functions"),
      projectDir: ROOT,
      projectId: PROJECT,
      isEmulator: false,
    }) as Record<string, string>;
  };

  it("sets region, memory, cpu, concurrency, timeout and instance bounds on api and pages from functions/.env", async () => {
    const endpoints = await resolve(loadEnv());
    expect(endpoints.map((e) => e.id).sort()).toEqual(["alarms", "api", "feeds", "pages", "purges", "webhooks"]);
    for (const endpoint of endpoints.filter((e) => SCHEDULED.includes(String(e.id)))) {
      // Every minute, one instance at a time, in the functions' region.
      expect(endpoint, String(endpoint.id)).toMatchObject({
        region: "us-central1",
        timeoutSeconds: 60,
        maxInstances: 1,
        scheduleTrigger: { schedule: "every 1 minutes" },
      });
    }
    for (const endpoint of endpoints.filter((e) => !SCHEDULED.includes(String(e.id)))) {
      expect(endpoint, String(endpoint.id)).toMatchObject({
        platform: "gcfv2",
        region: "us-central1",
        availableMemoryMb: 512,
        cpu: 1,
        concurrency: 80,
        timeoutSeconds: 60,
        minInstances: 0,
        maxInstances: 20,
      });
    }
  });

  it("takes other values from the environment files, as a project's .env.<project> would give them", async () => {
    const env = {
      ...loadEnv(),
      ALMANAC_REGION: "europe-west1",
      ALMANAC_MEMORY_MIB: "1024",
      ALMANAC_CPU: "2",
      ALMANAC_MIN_INSTANCES: "1",
      ALMANAC_MAX_INSTANCES: "5",
    };
    for (const endpoint of await resolve(env)) {
      // The scheduled functions take the region and memory; their instances stay one at a time.
      expect(endpoint, String(endpoint.id)).toMatchObject(
        SCHEDULED.includes(String(endpoint.id))
          ? { region: "europe-west1", availableMemoryMb: 1024, maxInstances: 1 }
          : { region: "europe-west1", availableMemoryMb: 1024, cpu: 2, minInstances: 1, maxInstances: 5 },
      );
    }
  });
});

describe("what Cloud Build installs and runs", () => {
  it("installs functions/package-lock.json: in step with functions/package.json, at the versions the tests ran with", async () => {
    const { stdout } = await run(process.execPath, [join(ROOT, "scripts/functions-lockfile.mjs"), "--check"]);
    expect(stdout).toContain("matches");
  });

  it("runs nodejs22, which firebase.json names; engines let Node 20 and 22 run everything locally", () => {
    const functionsConfig = readJson("firebase.json").functions[0];
    const { getRuntimeChoice } = requireTool(
      "firebase-tools/lib/deploy/functions/runtimes/node/parseRuntimeAndValidateSDK.js",
    );
    // firebase.json's runtime wins over package.json's engines (which may then be a range).
    expect(getRuntimeChoice(join(ROOT, "functions"), functionsConfig.runtime)).toBe("nodejs22");
    const semver = createRequire(requireTool.resolve("firebase-tools/package.json"))("semver");
    for (const manifest of ["package.json", "functions/package.json"]) {
      const range = readJson(manifest).engines.node;
      for (const version of ["20.19.0", "22.13.0"])
        expect(semver.satisfies(version, range), `${manifest} ${range} ${version}`).toBe(true);
      expect(semver.satisfies("24.0.0", range), `${manifest} ${range}`).toBe(false);
    }
  });
});
