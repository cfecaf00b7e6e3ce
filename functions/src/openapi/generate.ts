/**
 * Builds the OpenAPI 3.1 document from the route definitions: the same zod schemas that
 * validate requests describe them. Loaded on the first GET /openapi.json only.
 */
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../domain/errors.js";
import { errorHelp } from "../http/errors.js";
import { documentedScopes, type AnyRoute } from "../http/route.js";
import { webhookDelivery } from "../presenters/schemas/webhooks.js";
import { byStatus, documentedErrors, errorEnvelope } from "./error-codes.js";

export const API_VERSION = "0.5.0";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const DESCRIPTION = `Almanac is a JSON calendar API for software agents: mint an identity with no signup, create
calendars, write one-off, recurring and someday events, share them through grants and access
requests, publish filtered share views and compose calendars from layers.

Start with POST /v1/mint (no token needed). Guides written for agents: /llms.txt and
/docs/start.md, /docs/events.md, /docs/sharing.md, /docs/views-and-layers.md, /docs/errors.md.

The public pages \`/c/{slug}\` and \`/v/{slug}\` (HTML) and their \`.ics\` feeds are not part of
this API; /docs/start.md describes them.

Every success is HTTP 200 with a JSON object. Every error is \`{"error": {"code", "message",
"details"?, "request_id"}}\`; each operation lists the codes it can answer per status. Every POST needs an
\`Idempotency-Key\` header (any unique string up to 200 characters).

Every answer carries an \`X-Request-Id\` header: the one you sent, if it is 1 to 64 of
\`A-Z a-z 0-9 . _ -\`, else one made for it; an error repeats it as \`error.request_id\`.`;

/**
 * How a receiver knows a delivery came from Almanac: the Standard Webhooks signature, an HMAC of
 * the delivery with the webhook's secret. OpenAPI has no type for a signature, so it is declared
 * as the header that carries it; it is never a fixed key to compare.
 */
const WEBHOOK_SIGNATURE = {
  type: "apiKey" as const,
  in: "header" as const,
  name: "webhook-signature",
  description:
    "Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the " +
    "webhook's secret (`whsec_...`, from POST /v1/webhooks or its rotate-secret). Recompute and compare it, " +
    "and refuse a `webhook-timestamp` far from now; it changes with every delivery (/docs/webhooks.md).",
};

/** What `POST /v1/webhooks` subscribes a URL to: one signed POST per change (docs/api.md#webhooks). */
const CHANGE_DELIVERY: RouteConfig = {
  method: "post",
  path: "change",
  operationId: "receiveChange",
  security: [{ webhookSignature: [] }],
  summary: "A change of a subscribed calendar (or a ping), at least once and in feed order per calendar",
  description:
    "Verify `webhook-signature` with the webhook's secret as Standard Webhooks specifies, and deduplicate by " +
    "`webhook-id`. A 2xx within 10 s is delivered; anything else is retried with backoff for 24 hours.",
  tags: ["webhooks"],
  request: {
    headers: z.object({
      "webhook-id": z.string().meta({ description: "Stable per change and webhook: the key to deduplicate by" }),
      "webhook-timestamp": z.string().meta({ description: "Seconds since the epoch" }),
      "webhook-signature": z
        .string()
        .meta({ description: "`v1,` + base64 HMAC-SHA256; two, space-separated, for 24 h after a rotation" }),
    }),
    body: { content: { "application/json": { schema: webhookDelivery } } },
  },
  responses: { 200: { description: "Any 2xx within 10 s: delivered" } },
};

/** `#/components/schemas/Error`: the envelope with every code; each response narrows `code`. */
const ERROR_SCHEMA = errorEnvelope(ERROR_CODES).meta({ id: "Error" });

export function generateOpenApiDocument(routes: AnyRoute[], baseUrl: string): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "svc_agent_...",
    description: "A token from POST /v1/mint or POST /v1/agent-credentials: `Authorization: Bearer svc_agent_...`",
  });
  registry.registerComponent("securitySchemes", "webhookSignature", WEBHOOK_SIGNATURE);
  for (const route of routes) registry.registerPath(operation(route));
  registry.registerWebhook(CHANGE_DELIVERY);

  const document = new OpenApiGeneratorV31([
    ...registry.definitions,
    { type: "schema", schema: ERROR_SCHEMA },
  ]).generateDocument({
    openapi: "3.1.0",
    info: { title: "Almanac", version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: baseUrl }],
    tags: [...new Set(routes.flatMap((r) => r.tags))].map((name) => tag(name, baseUrl)),
  });
  return document;
}

/** What each tag's operations do, and the guide that explains them. */
const TAGS: Record<string, { description: string; docs?: string }> = {
  identity: { description: "Minting an agent, who you are, and credentials", docs: "/docs/start.md" },
  calendars: { description: "Calendars: create, read, change, delete", docs: "/docs/start.md" },
  events: {
    description: "Events, recurrence, occurrences, alarms and the change feed",
    docs: "/docs/events.md",
  },
  freebusy: { description: "Busy time and free slots across calendars", docs: "/docs/events.md" },
  grants: { description: "Roles other agents hold on a calendar", docs: "/docs/sharing.md" },
  "access requests": { description: "Asking an owner for a role, and answering", docs: "/docs/sharing.md" },
  "share views": { description: "Filtered public pages and feeds of a calendar", docs: "/docs/views-and-layers.md" },
  layers: { description: "Calendars shown inside another calendar", docs: "/docs/views-and-layers.md" },
  webhooks: { description: "Signed POSTs of changes and alarms to your URL", docs: "/docs/webhooks.md" },
  meta: { description: "This document" },
};

function tag(name: string, baseUrl: string) {
  const known = TAGS[name];
  if (!known) return { name };
  const { description, docs } = known;
  return docs
    ? { name, description, externalDocs: { description: "Guide for agents", url: `${baseUrl}${docs}` } }
    : { name, description };
}

function operation(route: AnyRoute): RouteConfig {
  const scopes = documentedScopes(route);
  return {
    method: route.method,
    path: route.path,
    operationId: operationId(route),
    summary: route.summary,
    description: describe(route, scopes),
    tags: route.tags,
    security: security(route, scopes),
    "x-scopes": scopes,
    request: {
      params: (route.params ?? pathParams(route.path)) as RouteParams,
      query: route.query as RouteParams,
      headers: route.method === "post" ? [idempotencyKey] : undefined,
      body: route.body
        ? {
            required: !route.bodyOptional,
            content: {
              // A text body is the first way to send it: the file as it is.
              ...(route.textBody
                ? { [route.textBody.type]: { schema: z.string().describe("The text, as the file holds it") } }
                : {}),
              "application/json": { schema: route.body },
            },
          }
        : undefined,
    },
    responses: {
      200: {
        description: "Success",
        headers: route.method === "post" ? replayedHeader : undefined,
        content: { "application/json": { schema: route.response } },
      },
      ...errorResponses(documentedErrors(route)),
    },
  };
}

type RouteParams = NonNullable<RouteConfig["request"]>["params"];

const idempotencyKey = z
  .string()
  .min(1)
  .max(200)
  .meta({
    param: {
      name: "Idempotency-Key",
      in: "header",
      description:
        "Any unique string up to 200 characters. A repeat with the same method, path and body within 24 hours answers the stored response.",
    },
  });

const replayedHeader = {
  "Idempotent-Replayed": {
    description: "`true` when this is the stored answer to an earlier request with the same Idempotency-Key",
    schema: { type: "string" as const, enum: ["true"] },
  },
};

const retryAfter = {
  "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "string" as const } },
};
const STATUS_HEADERS: Record<number, ResponseConfig["headers"]> = {
  401: {
    "WWW-Authenticate": {
      description: '`Bearer realm="almanac"`, with `error=` when a token was refused',
      schema: { type: "string" },
    },
  },
  403: {
    "WWW-Authenticate": {
      description: '`error="insufficient_scope"` and the scope needed, for `insufficient_scope`',
      schema: { type: "string" },
    },
  },
  405: { Allow: { description: "The methods this path accepts", schema: { type: "string" } } },
  409: retryAfter,
  429: retryAfter,
  503: retryAfter,
};

function errorResponses(codes: ErrorCode[]): Record<number, ResponseConfig> {
  const responses: Record<number, ResponseConfig> = {};
  for (const [status, group] of byStatus(codes)) {
    const lines = group.map((code) => `- \`${code}\`: ${errorHelp(code)}`).join("\n");
    responses[status] = {
      description: `Error codes (see /docs/errors.md):\n${lines}`,
      headers: STATUS_HEADERS[status],
      content: { "application/json": { schema: narrowedError(group) } },
    };
  }
  return responses;
}

/** The shared envelope, with `code` narrowed to what this status of this operation can answer. */
const narrowedError = (codes: ErrorCode[]) => ({
  allOf: [
    { $ref: "#/components/schemas/Error" },
    {
      type: "object" as const,
      properties: {
        error: { type: "object" as const, properties: { code: { type: "string" as const, enum: codes } } },
      },
    },
  ],
});

function security(route: AnyRoute, scopes: string[]): RouteConfig["security"] {
  if (route.auth === "none") return [];
  if (route.auth === "optional") return [{}, { bearer: scopes }];
  return [{ bearer: scopes }];
}

function describe(route: AnyRoute, scopes: string[]): string {
  const auth = {
    required: "Requires `Authorization: Bearer <token>`.",
    optional:
      "Token optional: public and unlisted calendars need none; private ones need a token whose agent holds a live grant.",
    none: "No token needed.",
  }[route.auth];
  const lines = [route.summary + ".", auth];
  const named = scopes.map((s) => `\`${s}\``).join(", ");
  if (scopes.length > 0)
    lines.push(route.auth === "optional" ? `Scopes: ${named}, for private calendars.` : `Scopes: ${named}.`);
  if (route.method === "post")
    lines.push("Send an `Idempotency-Key` header: a retry with the same key and body answers the first response.");
  return lines.join("\n\n");
}

/** Path placeholders as required string parameters, for routes that declare no params schema. */
function pathParams(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return names.length === 0 ? undefined : z.object(Object.fromEntries(names.map((name) => [name, z.string()])));
}

/** `post /v1/calendars/{calendarId}/events` -> `postCalendarsByCalendarIdEvents`. */
function operationId(route: AnyRoute): string {
  const words = route.path
    .replace(/^\/v1\//, "/")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      return param ? `By${capitalize(param[1])}` : capitalize(part);
    });
  return route.method + words.join("");
}

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
