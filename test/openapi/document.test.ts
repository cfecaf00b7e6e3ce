import { validate, compileErrors } from "@readme/openapi-parser";
import type { Express } from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusOf } from "../../functions/src/http/errors.js";
import { documentedErrors } from "../../functions/src/openapi/error-codes.js";
import { documentedScopes } from "../../functions/src/http/route.js";
import { apiRoutes } from "../../functions/src/routes/index.js";
import { BASE_URL, createTestApp, type TestApp } from "../helpers/app.js";

type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  "x-scopes": string[];
  description: string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { required: boolean };
  responses: Record<string, { content?: { "application/json": { schema: ErrorSchema } } }>;
};
type ErrorSchema = {
  allOf: [{ $ref: string }, { properties: { error: { properties: { code: { enum: string[] } } } } }];
};
type Doc = {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
};

let t: TestApp;
let doc: Doc;

beforeAll(async () => {
  t = createTestApp();
  const res = await request(t.app).get("/openapi.json").expect(200);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(res.headers["access-control-allow-origin"]).toBe("*");
  doc = res.body;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
const op = (method: string, path: string): Operation => {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not documented`);
  return found;
};
const errorCodes = (o: Operation, status: number): string[] =>
  o.responses[String(status)]?.content?.["application/json"].schema.allOf[1].properties.error.properties.code.enum ??
  [];

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document, version 0.5.0, that passes the standard validator", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.5.0");
    expect(doc.servers).toEqual([{ url: BASE_URL }]);
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it("answers the same document to every request, and 405 to other methods", async () => {
    const again = await request(t.app).get("/openapi.json").expect(200);
    expect(again.body).toEqual(doc);
    const post = await request(t.app).post("/openapi.json").set("Idempotency-Key", "k").send({});
    expect(post.status).toBe(405);
    expect(post.body.error.code).toBe("method_not_allowed");
  });

  it("documents exactly the routes Express serves", () => {
    // /mcp and /mcp/public are the MCP endpoint (JSON-RPC, one path for every tool; docs/mcp.md),
    // not operations of the document.
    const rest = servedOperations(t.app).filter((operation) => !/ \/mcp(\/public)?$/.test(operation));
    expect(rest.sort()).toEqual(
      operations()
        .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
        .sort(),
    );
    // and every route of apiRoutes is among them
    for (const route of apiRoutes) op(route.method, route.path);
  });

  it("uses the path parameter names of docs/api.md#versioning", () => {
    // `date`: an occurrence's original date (docs/api.md#exceptions, .../occurrences/{date}).
    const allowed = new Set([
      "calendarId",
      "eventId",
      "grantId",
      "requestId",
      "viewId",
      "layerId",
      "credentialId",
      "webhookId",
      "date",
    ]);
    for (const { path, op: o } of operations()) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const name of inPath) expect(allowed, `${path}`).toContain(name);
      const declared = (o.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      expect(declared.sort(), path).toEqual(inPath.sort());
    }
  });

  it("describes authentication and scopes per operation", () => {
    expect(op("post", "/v1/mint").security).toEqual([]);
    expect(op("get", "/v1/me").security).toEqual([{ bearer: ["agent:read"] }]);
    expect(op("get", "/v1/me")["x-scopes"]).toEqual(["agent:read"]);
    expect(op("get", "/v1/me").description).toContain("`agent:read`");
    for (const route of apiRoutes) {
      const o = op(route.method, route.path);
      const scopes = documentedScopes(route);
      const expected = { none: [], required: [{ bearer: scopes }], optional: [{}, { bearer: scopes }] }[route.auth];
      expect(o.security, `${route.method} ${route.path}`).toEqual(expected);
      expect(o["x-scopes"]).toEqual(scopes);
      expect(errorCodes(o, 401).includes("unauthorized")).toBe(route.auth !== "none");
    }
  });

  it("requires an Idempotency-Key header on every POST, and only there", () => {
    for (const { path, method, op: o } of operations()) {
      const header = (o.parameters ?? []).find((p) => p.in === "header" && p.name === "Idempotency-Key");
      if (method === "post") {
        expect(header?.required, path).toBe(true);
        expect(errorCodes(o, 400)).toContain("missing_idempotency_key");
        expect(errorCodes(o, 409)).toContain("idempotency_key_in_use");
        expect(errorCodes(o, 422)).toEqual(["idempotency_key_reused"]);
      } else {
        expect(header, `${method} ${path}`).toBeUndefined();
      }
    }
  });

  it("lists each route's error codes under their own status, with the shared ones", () => {
    for (const route of apiRoutes) {
      const o = op(route.method, route.path);
      const documented = Object.entries(o.responses)
        .filter(([status]) => status !== "200")
        .flatMap(([status]) => errorCodes(o, Number(status)).map((code) => `${status} ${code}`));
      expect(documented.sort(), `${route.method} ${route.path}`).toEqual(
        documentedErrors(route)
          .map((code) => `${statusOf(code)} ${code}`)
          .sort(),
      );
      for (const code of route.errors) expect(documented).toContain(`${statusOf(code)} ${code}`);
      expect(errorCodes(o, 500)).toEqual(["internal"]);
      expect(errorCodes(o, 405)).toEqual(["method_not_allowed"]);
    }
    const mint = op("post", "/v1/mint");
    expect(errorCodes(mint, 400)).toEqual(
      expect.arrayContaining(["invalid_json", "invalid_request", "missing_idempotency_key"]),
    );
    expect(errorCodes(mint, 401)).toEqual(["invalid_onboard_token"]);
    expect(errorCodes(mint, 413)).toEqual(["payload_too_large"]);
    expect(errorCodes(mint, 415)).toEqual(["unsupported_media_type"]);
    expect(mint.requestBody?.required).toBe(true);
    expect(op("post", "/v1/agent-credentials").requestBody?.required).toBe(false);
  });
});

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** `METHOD /path` for every route mounted on the app, without the 405 catch-alls (`router.all`). */
function servedOperations(app: Express): string[] {
  const walk = (stack: Layer[]): string[] =>
    stack.flatMap((layer) => {
      if (layer.route) {
        if (layer.route.methods._all) return [];
        const paths = [layer.route.path].flat();
        return Object.keys(layer.route.methods).flatMap((m) =>
          paths.map((path) => `${m.toUpperCase()} ${path.replace(/:(\w+)/g, "{$1}")}`),
        );
      }
      return layer.handle?.stack ? walk(layer.handle.stack) : [];
    });
  const served = walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  expect(served.length).toBeGreaterThan(0);
  return served;
}
