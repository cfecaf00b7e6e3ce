/**
 * The webhook sender (functions/src/outbound/send.ts) against a real receiver on 127.0.0.1:
 * every refused form of address refused before any connection, loopback let through only when
 * allowed, names judged on what they resolve to (test lookups), redirects not followed, the
 * answer read at most 4 KB, the time limit, and the abort signal.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Sender } from "../../functions/src/domain/webhooks/sender.js";
import { senderOnFirstUse } from "../../functions/src/outbound/lazy.js";
import { lookupFrom } from "../helpers/lookup.js";
import { createSender } from "../../functions/src/outbound/send.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let port: number;
let hits: string[] = [];
let handle: Handler;
let connections = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    req.resume();
    req.on("end", () => handle(req, res));
  });
  server.on("connection", () => connections++);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});
beforeEach(() => {
  hits = [];
  connections = 0;
  handle = (_req, res) => res.writeHead(204).end();
});

/** A lookup of test names: each resolves to the addresses listed, and is counted. */
const namesLookup = (names: Record<string, string[]>) => vi.fn<LookupFunction>(lookupFrom(names));

const NAMES = {
  "loop.example.test": ["127.0.0.1"],
  "loop6.example.test": ["::1"],
  "mapped.example.test": ["::ffff:127.0.0.1"],
  "mixed.example.test": ["93.184.215.14", "127.0.0.1"],
  "private.example.test": ["10.0.0.1"],
  "nat64.example.test": ["64:ff9b::127.0.0.1"],
  "receiver.example.test": ["127.0.0.1"],
};

const send = (sender: Sender, url: string, timeoutMs = 2_000, signal?: AbortSignal) =>
  sender(url, { "content-type": "application/json" }, '{"type":"ping"}', { timeoutMs, signal });

describe("with loopback not allowed", () => {
  const refused = [
    "http://127.0.0.1:PORT/x",
    "http://127.8.9.10:PORT/x",
    "http://2130706433:PORT/x",
    "http://localhost:PORT/x",
    "http://localhost.:PORT/x",
    "http://[::1]:PORT/x",
    "http://[::ffff:127.0.0.1]:PORT/x",
    "http://[::127.0.0.1]:PORT/x",
    "http://[::ffff:0:127.0.0.1]:PORT/x",
    "http://[64:ff9b::127.0.0.1]:PORT/x",
    "http://[2002:7f00:1::]:PORT/x",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:PORT/x",
    "http://198.18.0.1:PORT/x",
    "http://10.0.0.1:PORT/x",
    "http://169.254.169.254/latest/meta-data",
    "http://[fd00:ec2::254]/x",
    "http://metadata.google.internal/computeMetadata/v1",
    "http://loop.example.test:PORT/x",
    "http://loop6.example.test:PORT/x",
    "http://mapped.example.test:PORT/x",
    "http://mixed.example.test:PORT/x",
    "http://private.example.test:PORT/x",
    "http://nat64.example.test:PORT/x",
  ];

  it("refuses every non-public form, literal or resolved, before sending anything", async () => {
    const sender = createSender({ allowLoopback: false, lookup: namesLookup(NAMES) });
    for (const url of refused.map((u) => u.replace("PORT", String(port)))) {
      const result = await send(sender, url);
      expect(result, url).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^refused/) });
    }
    expect(hits).toEqual([]);
    expect(connections).toBe(0);
  });

  it("says why: the kind of address, and for a name what it resolves to", async () => {
    const sender = createSender({ allowLoopback: false, lookup: namesLookup(NAMES) });
    expect((await send(sender, `http://[2002:7f00:1::]:${port}/`)).error).toBe(
      "refused: [2002:7f00:1::] is a loopback address inside a 6to4 IPv6 address",
    );
    expect((await send(sender, `http://198.18.0.1:${port}/`)).error).toMatch(/benchmarking/);
    expect((await send(sender, `http://mixed.example.test:${port}/`)).error).toBe(
      "refused: mixed.example.test resolves to a loopback address",
    );
    expect((await send(sender, `http://localhost.:${port}/`)).error).toMatch(/end with a dot/);
  });

  it("judges a name's addresses at each new connection: a name rebinding to loopback is refused", async () => {
    const names: Record<string, string[]> = { "rebind.example.test": ["93.184.215.14"] };
    const sender = createSender({ allowLoopback: false, lookup: namesLookup(names) });
    names["rebind.example.test"] = ["127.0.0.1"];
    expect((await send(sender, `http://rebind.example.test:${port}/`)).error).toMatch(/^refused/);
    expect(hits).toEqual([]);
  });
});

describe("with loopback allowed", () => {
  it("delivers to loopback, literal or resolved, and still refuses the other forms", async () => {
    const lookup = namesLookup(NAMES);
    const sender = createSender({ allowLoopback: true, lookup });
    for (const url of [`http://127.0.0.1:${port}/a`, `http://receiver.example.test:${port}/b`]) {
      expect(await send(sender, url), url).toMatchObject({ ok: true, status: 204, error: null });
    }
    expect(hits).toEqual(["/a", "/b"]);
    for (const url of [
      `http://localhost.:${port}/x`,
      `http://[::127.0.0.1]:${port}/x`,
      `http://[64:ff9b::127.0.0.1]:${port}/x`,
      `http://[2002:7f00:1::]:${port}/x`,
      `http://198.18.0.1:${port}/x`,
      `http://private.example.test:${port}/x`,
      `http://nat64.example.test:${port}/x`,
    ]) {
      expect((await send(sender, url)).error, url).toMatch(/^refused/);
    }
    expect(hits).toEqual(["/a", "/b"]);
  });

  it("keeps the connection alive between attempts", async () => {
    const sender = createSender({ allowLoopback: true });
    for (let i = 0; i < 3; i++) expect((await send(sender, `http://127.0.0.1:${port}/k`)).ok).toBe(true);
    expect(connections).toBe(1);
  });

  it("never follows a redirect, and a non-2xx fails", async () => {
    const sender = createSender({ allowLoopback: true });
    handle = (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    expect(await send(sender, `http://127.0.0.1:${port}/r`)).toMatchObject({
      ok: false,
      status: 302,
      error: expect.stringMatching(/^redirect \(302\) not followed/),
    });
    handle = (_req, res) => res.writeHead(500).end();
    expect(await send(sender, `http://127.0.0.1:${port}/e`)).toMatchObject({
      ok: false,
      status: 500,
      error: "receiver answered 500",
    });
    expect(hits).toEqual(["/r", "/e"]);
  });

  it("reads at most 4 KB of an answer: an endless one is dropped, not read to the time limit", async () => {
    const sender = createSender({ allowLoopback: true });
    let closedAt = 0;
    handle = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(16 * 1024, "x");
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      res.on("close", () => (closedAt = performance.now()));
      pump();
    };
    const started = performance.now();
    expect(await send(sender, `http://127.0.0.1:${port}/big`, 10_000)).toMatchObject({ ok: true, status: 200 });
    await vi.waitFor(() => expect(closedAt).toBeGreaterThan(0), { timeout: 3_000 });
    expect(closedAt - started).toBeLessThan(3_000);
  });

  it("fails an attempt with no answer within the time limit", async () => {
    const sender = createSender({ allowLoopback: true });
    handle = () => undefined;
    const result = await send(sender, `http://127.0.0.1:${port}/slow`, 200);
    expect(result).toMatchObject({ ok: false, status: null, error: "no answer within 200 ms" });
    expect(result.latencyMs).toBeGreaterThanOrEqual(190);
  });

  it("ends a hanging attempt when its signal aborts, as a failure, never a throw", async () => {
    const sender = createSender({ allowLoopback: true });
    handle = () => undefined;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await send(sender, `http://127.0.0.1:${port}/hang`, 10_000, controller.signal);
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^aborted after \d+ ms/) });
    expect(result.latencyMs).toBeLessThan(5_000);

    const before = hits.length;
    const aborted = await send(sender, `http://127.0.0.1:${port}/never`, 10_000, AbortSignal.abort());
    expect(aborted).toMatchObject({ ok: false, status: null, error: "aborted before it was sent" });
    expect(hits).toHaveLength(before);
  });
});

describe("senderOnFirstUse (the composition roots' sender)", () => {
  it("builds the sender on its first attempt, under the same policy", async () => {
    const sender = senderOnFirstUse({ allowLoopback: false });
    expect((await send(sender, `http://127.0.0.1:${port}/x`)).error).toMatch(/^refused/);
    const allowed = senderOnFirstUse({ allowLoopback: true });
    expect(await send(allowed, `http://127.0.0.1:${port}/y`)).toMatchObject({ ok: true, status: 204 });
    expect(hits).toEqual(["/y"]);
  });
});
