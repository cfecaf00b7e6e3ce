/** The MCP tools mirror the API operations one for one (docs/api.md#mcp); no server needed. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_CATALOG, operationKey } from "../../functions/src/mcp/catalog.js";
import { IDEMPOTENCY_ARGUMENT, buildTools } from "../../functions/src/mcp/tools.js";
import { apiRoutes } from "../../functions/src/routes/index.js";

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");

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

  it("describes each tool by when to use it, ending with a link to its guide section", () => {
    const docs = join(import.meta.dirname, "../../hosting/docs");
    for (const { listed, route } of tools) {
      const entry = TOOL_CATALOG[operationKey(route.method, route.path)];
      expect(listed.description.startsWith(entry.use), listed.name).toBe(true);
      expect(entry.use, listed.name).toMatch(/^Use /);
      expect(listed.description.endsWith(` Docs: /docs/${entry.docs}`), listed.name).toBe(true);
      const [file, anchor] = entry.docs.split("#");
      const anchors = readFileSync(join(docs, file), "utf8")
        .split("\n")
        .filter((line) => /^#{1,4} /.test(line))
        .map((line) => slug(line.replace(/^#+ /, "")));
      expect(anchors, `${listed.name}: ${entry.docs}`).toContain(anchor);
    }
  });

  it("titles each tool as what it does, a verb first", () => {
    for (const { listed } of tools) {
      expect(listed.title, listed.name).toMatch(
        /^(Mint|Get|List|Create|Revoke|Update|Delete|Change|Restore|Grant|Request|Resolve|Attach|Detach|Find|Rotate|Test|Import) /,
      );
    }
    const title = (name: string) => tools.find((tool) => tool.listed.name === name)!.listed.title;
    expect(title("update_occurrence")).toBe("Change one occurrence");
    expect(title("restore_occurrence")).toBe("Restore one occurrence");
  });

  it("names attach_layer's two calendars apart: the host `calendarId`, the attached `layer_calendar_id`", () => {
    const attach = tools.find((tool) => tool.listed.name === "attach_layer")!;
    expect(attach.listed.inputSchema.required).toEqual(["calendarId", "key"]);
    expect(Object.keys(attach.listed.inputSchema.properties)).toContain("feed_url");
    expect(attach.listed.inputSchema.properties.calendarId.description).toMatch(/^Host calendar/);
    expect(attach.bodyFields.get("layer_calendar_id")).toBe("calendar_id");
  });

  it("flattens path parameters, query parameters and body fields into one argument object", () => {
    for (const { listed, route, pathParams, queryKeys, bodyFields } of tools) {
      const expected = [
        ...pathParams.map((p) => p.argument),
        ...queryKeys,
        ...bodyFields.keys(),
        ...(route.method === "post" ? [IDEMPOTENCY_ARGUMENT] : []),
      ];
      expect(Object.keys(listed.inputSchema.properties).sort(), listed.name).toEqual([...expected].sort());
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
      // A hint left out is MCP's default: not read-only, destructive, not idempotent.
      const { readOnlyHint = false, destructiveHint = true, idempotentHint = false } = listed.annotations;
      expect(readOnlyHint, listed.name).toBe(route.method === "get");
      expect(!readOnlyHint && destructiveHint, listed.name).toBe(route.method === "delete");
      if (!readOnlyHint) expect(idempotentHint, listed.name).toBe(route.method !== "post");
    }
  });

  it("lists every tool with its operation and toolset in the agents' docs (hosting/docs/mcp.md)", () => {
    const doc = readFileSync(join(import.meta.dirname, "../../hosting/docs/mcp.md"), "utf8");
    for (const { listed, route, toolset } of tools) {
      const row = `| \`${listed.name}\` | \`${route.method.toUpperCase()} ${route.path}\` | ${toolset} |`;
      expect(doc, listed.name).toContain(row);
    }
  });
});
