import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";

type Problem = { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer: string }[] };
type LintReport = { totals: { errors: number; warnings: number }; problems: Problem[] };

// The package exports no entry point to resolve; its manifest sits beside the binary.
const CLI = join(createRequire(import.meta.url).resolve("@redocly/cli/package.json"), "../bin/cli.js");

let t: TestApp;
let dir: string;

beforeAll(() => {
  t = createTestApp();
  dir = mkdtempSync(join(tmpdir(), "almanac-redocly-"));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("/openapi.json under redocly's recommended rules", () => {
  it("has no errors; its warnings are listed", { timeout: 60_000 }, async () => {
    const doc = (await request(t.app).get("/openapi.json").expect(200)).body;
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc, null, 1));
    // Run in an empty directory, so no redocly.yaml of the project or above changes the rules.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, "lint", "--extends=recommended", "--format=json", "openapi.json"],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const report = JSON.parse(stdout) as LintReport;
    const line = (p: Problem) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`;
    const warnings = report.problems.filter((p) => p.severity === "warn").map(line);
    if (warnings.length > 0) console.info(`redocly warnings (${warnings.length}):\n${warnings.join("\n")}`);
    expect(report.problems.filter((p) => p.severity === "error").map(line)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(report.totals.warnings).toBe(warnings.length);
  });

  it("declares how a webhook delivery proves where it came from", async () => {
    const doc = (await request(t.app).get("/openapi.json").expect(200)).body;
    const delivery = doc.webhooks.change.post;
    expect(delivery.security).toEqual([{ webhookSignature: [] }]);
    expect(doc.components.securitySchemes.webhookSignature).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "webhook-signature",
    });
    expect(delivery.parameters.map((p: { name: string }) => p.name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
  });
});
