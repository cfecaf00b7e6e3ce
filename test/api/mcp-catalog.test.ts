/** The MCP tools mirror the API operations one for one (docs/api.md#mcp); no server needed. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_CATALOG, operationKey } from "../../functions/src/mcp/catalog.js";
import { IDEMPOTENCY_ARGUMENT, buildTools } from "../../functions/src/mcp/tools.js";
import { apiRoutes } from "../../functions/src/routes/index.js";

const operations = apiRoutes.map((route) => operationKey(route.method, route.path));
const tools = buildTools(apiRoutes);

describe("one MCP tool per API operation", () => {
  it("gives every operation a tool: a new route without a line in mcp/catalog.ts fails here", () => {
    const missing = operations.filter((key) => !(key in TOOL_CATALOG));
    expect(missing, "add these operations to TOOL_CATALOG in functions/src/mcp/catalog.ts").toEqual([]);
    expect(tools.map((tool) => tool.route)).toEqual(apiRoutes);
  });

  it("names no tool for an operation that does not exist", () => {
    const orphans = Object.keys(TOOL_CATALOG).filter((key) => !operations.includes(key));
    expect(orphans, "remove or correct these entries of TOOL_CATALOG").toEqual([]);
  });

  it("names each tool once, in snake_case, for what it does", () => {
    const names = tools.map((tool) => tool.listed.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)+$/);
    const byName = (name: string) => tools.find((tool) => tool.listed.name === name)?.route;
    expect(byName("create_event")).toMatchObject({ method: "post", path: "/v1/calendars/{calendarId}/events" });
    expect(byName("list_occurrences")).toMatchObject({ method: "get", path: "/v1/calendars/{calendarId}/occurrences" });
    expect(byName("request_access")).toMatchObject({
      method: "post",
      path: "/v1/calendars/{calendarId}/access-requests",
    });
    expect(byName("attach_layer")).toMatchObject({ method: "post", path: "/v1/calendars/{calendarId}/layers" });
    expect(byName("find_free_time")).toMatchObject({ method: "get", path: "/v1/freebusy/slots" });
  });

  it("describes each tool by its route's summary, then when to use it", () => {
    for (const { listed, route } of tools) {
      const entry = TOOL_CATALOG[operationKey(route.method, route.path)];
      expect(listed.description.startsWith(`${route.summary}.`), listed.name).toBe(true);
      expect(listed.description, listed.name).toContain(entry.use);
      expect(entry.use, listed.name).toMatch(/^Use /);
    }
  });

  it("flattens path parameters, query parameters and body fields into one argument object", () => {
    for (const { listed, route, pathParams, queryKeys, bodyKeys } of tools) {
      const expected = [
        ...pathParams.map((p) => p.argument),
        ...queryKeys,
        ...bodyKeys,
        ...(route.method === "post" ? [IDEMPOTENCY_ARGUMENT] : []),
      ];
      expect(Object.keys(listed.inputSchema.properties).sort(), listed.name).toEqual([...expected].sort());
      expect(listed.inputSchema.additionalProperties, listed.name).toBe(false);
      for (const { argument } of pathParams) expect(listed.inputSchema.required, listed.name).toContain(argument);
    }
    const createEvent = tools.find((tool) => tool.listed.name === "create_event")!.listed.inputSchema;
    expect(createEvent.required).toEqual(["calendarId", "name"]);
    expect(createEvent.properties.recur).toBeDefined();
    const occurrences = tools.find((tool) => tool.listed.name === "list_occurrences")!.listed.inputSchema;
    expect(occurrences.required).toEqual(["calendarId", "from", "to"]);
    // The occurrence's own date in the path is `original_date`, beside the body's new `date`.
    const move = tools.find((tool) => tool.listed.name === "update_occurrence")!.listed.inputSchema;
    expect(move.required).toEqual(["calendarId", "eventId", "original_date"]);
    expect(move.properties.date).toBeDefined();
  });

  it("marks reads read-only and deletions destructive", () => {
    for (const { listed, route } of tools) {
      expect(listed.annotations.readOnlyHint, listed.name).toBe(route.method === "get");
      expect(listed.annotations.destructiveHint, listed.name).toBe(route.method === "delete");
    }
  });

  it("lists every tool with its operation in the agents' docs (hosting/docs/mcp.md)", () => {
    const doc = readFileSync(join(import.meta.dirname, "../../hosting/docs/mcp.md"), "utf8");
    for (const { listed, route } of tools) {
      expect(doc, listed.name).toContain(`| \`${listed.name}\` | \`${route.method.toUpperCase()} ${route.path}\` |`);
    }
  });
});
