/**
 * Routes declare what they need (issue 11): the auth mode types the caller, a calendar action
 * types the loaded calendar and derives the documented scope. The type checks here run in
 * `npm run typecheck` (expectTypeOf and @ts-expect-error); the runtime checks in vitest.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { Actor } from "../../functions/src/domain/actor.js";
import { RULES } from "../../functions/src/domain/policy.js";
import type { CalendarAccess } from "../../functions/src/domain/queries/access.js";
import { calendarRefusals, defineRoute, documentedScopes } from "../../functions/src/http/route.js";
import { apiRoutes } from "../../functions/src/routes/index.js";

const ok = z.object({ ok: z.boolean() });
const base = { summary: "test", tags: ["test"], response: ok, errors: [] };

describe("defineRoute", () => {
  it("types the caller by the auth mode and the calendar by the declared action", () => {
    const required = defineRoute({
      ...base,
      method: "post",
      path: "/t/{calendarId}",
      auth: "required",
      calendar: "event.write",
      handler: async ({ actor, calendar }) => {
        expectTypeOf(actor).toEqualTypeOf<Actor>();
        expectTypeOf(calendar).toEqualTypeOf<CalendarAccess>();
        return { ok: true };
      },
    });
    const optional = defineRoute({
      ...base,
      method: "get",
      path: "/t",
      auth: "optional",
      handler: async ({ actor, calendar }) => {
        expectTypeOf(actor).toEqualTypeOf<Actor | null>();
        expectTypeOf(calendar).toEqualTypeOf<undefined>();
        return { ok: true };
      },
    });
    const none = defineRoute({
      ...base,
      method: "get",
      path: "/t",
      auth: "none",
      handler: async ({ actor }) => {
        expectTypeOf(actor).toEqualTypeOf<null>();
        return { ok: true };
      },
    });
    expect([required.calendar, optional.calendar, none.calendar]).toEqual(["event.write", undefined, undefined]);
  });

  it("refuses at build time a hand-written scope beside a calendar action, and an answer missing a field", () => {
    const withScope = defineRoute({
      ...base,
      method: "get",
      path: "/t/{calendarId}",
      auth: "optional",
      calendar: "calendar.read",
      // @ts-expect-error the scope is the action's (domain/policy.ts RULES)
      scope: "calendar:read",
      handler: async () => ({ ok: true }),
    });
    const offSchema = defineRoute({
      ...base,
      method: "get",
      path: "/t",
      auth: "none",
      // @ts-expect-error `ok` is missing (an extra field in a handler's literal is not caught: TypeScript
      // checks excess properties of a callback's return loosely; presenters declare their type for that)
      handler: async () => ({ okay: true }),
    });
    expect([withScope.path, offSchema.path]).toEqual(["/t/{calendarId}", "/t"]);
  });

  it("refuses a calendar action on a path without {calendarId}", () => {
    expect(() =>
      defineRoute({
        ...base,
        method: "get",
        path: "/t",
        auth: "optional",
        calendar: "calendar.read",
        handler: async () => ({ ok: true }),
      }),
    ).toThrow(/needs a \{calendarId\}/);
  });
});

describe("the API's routes", () => {
  const calendarRoutes = apiRoutes.flatMap((route) => (route.calendar ? [{ route, action: route.calendar }] : []));

  it("declare a calendar action on every calendar path and document its scope and refusals", () => {
    expect(calendarRoutes.map(({ route }) => `${route.method} ${route.path}`)).toEqual(
      apiRoutes.filter((r) => r.path.includes("{calendarId}")).map((r) => `${r.method} ${r.path}`),
    );
    for (const { route, action } of calendarRoutes) {
      expect(route.scope, route.path).toBeUndefined();
      expect(documentedScopes(route)).toEqual([RULES[action].scope]);
      expect(calendarRefusals(action).includes("forbidden")).toBe(RULES[action].minRole !== null);
    }
  });

  it("keep their own scope where no calendar is named", () => {
    const scoped = apiRoutes.filter((r) => !r.calendar).map((r) => [`${r.method} ${r.path}`, documentedScopes(r)]);
    expect(scoped).toEqual([
      ["post /v1/mint", []],
      ["get /v1/me", ["agent:read"]],
      ["get /v1/agent-credentials", ["agent:read"]],
      ["post /v1/agent-credentials", []],
      ["delete /v1/agent-credentials/{credentialId}", []],
      ["post /v1/calendars", ["calendar:write"]],
      // Free/busy names its calendars in the query and judges each with `calendar.read` itself.
      ["get /v1/freebusy", []],
      ["get /v1/freebusy/slots", []],
      // Webhooks name their calendars in the body and judge each with `calendar.read` at every delivery.
      ["get /v1/webhooks", ["calendar:read"]],
      ["post /v1/webhooks", ["calendar:read"]],
      ["get /v1/webhooks/{webhookId}", ["calendar:read"]],
      ["patch /v1/webhooks/{webhookId}", ["calendar:read"]],
      ["delete /v1/webhooks/{webhookId}", ["calendar:read"]],
      ["post /v1/webhooks/{webhookId}/rotate-secret", ["calendar:read"]],
      ["post /v1/webhooks/{webhookId}/test", ["calendar:read"]],
      ["get /v1/webhooks/{webhookId}/deliveries", ["calendar:read"]],
    ]);
  });
});
