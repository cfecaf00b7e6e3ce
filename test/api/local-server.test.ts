import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { onFirestore, sqliteOnly } from "../helpers/app.js";
import { startLocalServer } from "../../functions/src/server.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string, log: string[]) {
  const local = await startLocalServer({ port: 0, dataDir, log: (line) => log.push(line) });
  const origin = `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`;
  return { ...local, origin };
}

async function mint(origin: string) {
  const res = await fetch(`${origin}/v1/mint`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": "first-mint" },
    body: JSON.stringify({ name: "Scout" }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; agent: { id: string }; claim_url: string };
}

describe.skipIf(onFirestore)(sqliteOnly("the local server on its SQLite file", "it tests that file"), () => {
  it("keeps a minted token working across a restart on the same DATA_DIR", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "almanac-restart-"));
    dirs.push(dataDir);
    const first = await start(dataDir, []);
    const { token, agent } = await mint(first.origin);
    await first.close();

    const second = await start(dataDir, []);
    const me = await fetch(`${second.origin}/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { agent: { id: string } }).agent.id).toBe(agent.id);
    // The idempotency record survived too: the replay answers without a new agent.
    const replay = await fetch(`${second.origin}/v1/mint`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": "first-mint" },
      body: JSON.stringify({ name: "Scout" }),
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await second.close();
  });

  it("refuses a second server on the same DATA_DIR while the first runs, saying so", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "almanac-in-use-"));
    dirs.push(dataDir);
    const first = await start(dataDir, []);
    await expect(start(dataDir, [])).rejects.toThrow(/in use by another process.*another DATA_DIR/);
    // The first goes on serving.
    expect((await fetch(`${first.origin}/v1/me`)).status).toBe(401);
    await first.close();
    const again = await start(dataDir, []);
    await again.close();
  });

  it("never writes a token to the database files or the server log", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "almanac-secrets-"));
    dirs.push(dataDir);
    const log: string[] = [];
    const server = await start(dataDir, log);
    const { token, claim_url } = await mint(server.origin);
    const claimToken = claim_url.slice(claim_url.lastIndexOf("/") + 1);
    const created = await fetch(`${server.origin}/v1/agent-credentials`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": "second" },
    });
    const second = ((await created.json()) as { token: string }).token;
    await fetch(`${server.origin}/v1/me`, { headers: { Authorization: `Bearer ${second}` } });
    await fetch(`${server.origin}/v1/me`, { headers: { Authorization: `Bearer ${token}x` } });
    await server.close();

    const files = readdirSync(dataDir);
    expect(files).toContain("almanac.sqlite");
    const everything = files.map((f) => readFileSync(join(dataDir, f)).toString("latin1")).join("\n") + log.join("\n");
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [token, second]) {
      expect(secret).toMatch(/^svc_agent_/);
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(secret.slice("svc_agent_".length));
    }
    // The claim link is a secret too: only its hash is stored, never the stored mint response.
    expect(claimToken).toMatch(/^svc_claim_/);
    expect(everything).not.toContain(claimToken);
    expect(everything).not.toContain("svc_claim_");
  });
});
