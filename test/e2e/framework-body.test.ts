/**
 * The API behind a stand-in for the Cloud Functions framework, which parses bodies before the
 * app runs (req.body set, req.rawBody a Buffer, its own 32 MB limit), as the functions
 * emulator does too. Fast and without firebase-tools; firebase.test.ts checks the real thing.
 */
import express, { type Express, type Request } from "express";
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import { appPerTest } from "../helpers/app.js";
import { expectError, freshKey } from "../helpers/http.js";

const t = appPerTest();
let framework: Express;
beforeEach(() => {
  const api = createApiApp(t.deps);
  framework = express();
  framework.use(
    express.json({
      limit: "32mb",
      verify: (req, _res, buf) => {
        (req as Request & { rawBody?: Buffer }).rawBody = buf;
      },
    }),
  );
  framework.use((req, res) => api(req, res));
});

const mint = (body: string) =>
  request(framework)
    .post("/v1/mint")
    .set("Content-Type", "application/json")
    .set("Idempotency-Key", freshKey())
    .send(body);

describe("the API behind a framework that parsed the body already", () => {
  it("still answers a body over 64 KiB with 413 payload_too_large", async () => {
    expectError(await mint(JSON.stringify({ name: "x".repeat(64 * 1024) })), 413, "payload_too_large");
  });

  it("accepts a body just under the limit, and validates it as usual", async () => {
    const padded = JSON.stringify({ name: "x".repeat(300) }) + " ".repeat(60 * 1024);
    expectError(await mint(padded), 400, "invalid_request");
    const res = await mint(JSON.stringify({ name: "Framework" }));
    expect(res.status).toBe(200);
    expect(res.body.agent.name).toBe("Framework");
  });

  it("replays a mint from the Buffer raw body like from our own parser's text", async () => {
    const key = freshKey();
    const body = JSON.stringify({ name: "Replay" });
    const send = () =>
      request(framework)
        .post("/v1/mint")
        .set("Content-Type", "application/json")
        .set("Idempotency-Key", key)
        .send(body);
    const first = await send().expect(200);
    const again = await send().expect(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body.agent.id).toBe(first.body.agent.id);
  });
});
