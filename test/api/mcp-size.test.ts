/**
 * tools/list is read into the model's context on every session, so its size is a cost paid
 * before any work: the default listing must stay under a budget, and the full one (`all`) under
 * its own (docs/mcp.md#tool-list-size).
 */
import { describe, expect, it } from "vitest";
import { TOOLSETS, TOOL_CATALOG, type ToolsetName } from "../../functions/src/mcp/catalog.js";
import { buildTools, type ListedTool } from "../../functions/src/mcp/tools.js";
import { listingsOf, requestedToolsets } from "../../functions/src/mcp/toolsets.js";
import { apiRoutes } from "../../functions/src/routes/index.js";

/** What the default listing (everyday scheduling) may weigh. */
const DEFAULT_BUDGET = 16 * 1024;
/**
 * Names, titles, annotations, guide links and the arguments' names, types, enums and bounds
 * alone are about 15.7 KB for 41 tools; what is above that is one short use sentence per tool
 * and one line per argument (docs/mcp.md#tool-list-size). `days` on events and occurrences
 * took it past 26 KB, `import_ics` (1.1 KB) and feed layers past 28 KB.
 */
const ALL_BUDGET = 29 * 1024;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** The bytes of every description string in a tool, its own and its arguments'. */
const textBytes = (tool: ListedTool) =>
  bytes(tool.description) +
  Object.values(tool.inputSchema.properties).reduce((sum, schema) => sum + bytes(schema.description ?? ""), 0);

const listingOf = listingsOf(buildTools(apiRoutes));
/** tools/list as the server answers a client that asked for these toolsets (`?toolsets=`). */
function listing(asked: string | undefined) {
  const selection = requestedToolsets(asked, undefined);
  if ("unknown" in selection) throw new Error(`no toolset ${selection.unknown}`);
  return listingOf(selection.toolsets);
}

function report(label: string, tools: ListedTool[]): number {
  const total = bytes({ tools });
  const text = tools.reduce((sum, tool) => sum + textBytes(tool), 0);
  const largest = tools
    .map((tool) => ({ name: tool.name, bytes: bytes(tool), inputSchema: bytes(tool.inputSchema) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5);
  console.log(`tools/list (${label}): ${total} bytes for ${tools.length} tools (descriptions ${text}); largest:`);
  for (const tool of largest) console.log(`  ${tool.name}: ${tool.bytes} bytes (input schema ${tool.inputSchema})`);
  return total;
}

describe("tools/list size", () => {
  it(`lists the default toolset within ${DEFAULT_BUDGET} bytes, as the server answers it`, () => {
    const { tools } = listing(undefined);
    expect(report("default", tools)).toBeLessThanOrEqual(DEFAULT_BUDGET);
    const everyday = Object.values(TOOL_CATALOG).filter((entry) => entry.toolset === "default");
    expect(tools.map((tool) => tool.name).sort()).toEqual(everyday.map((entry) => entry.name).sort());
  });

  it(`lists every tool with ?toolsets=all within ${ALL_BUDGET} bytes`, () => {
    const { tools } = listing("all");
    expect(report("all", tools)).toBeLessThanOrEqual(ALL_BUDGET);
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      Object.values(TOOL_CATALOG)
        .map((entry) => entry.name)
        .sort(),
    );
  });

  it("weighs what each named toolset adds to the default listing", () => {
    const base = bytes(listing(undefined));
    for (const toolset of Object.keys(TOOLSETS).filter((name) => name !== "default") as ToolsetName[]) {
      const added = listing(toolset);
      const own = added.tools.filter((tool) => TOOL_CATALOG[keyOf(tool.name)].toolset === toolset);
      console.log(`  +${toolset}: ${own.length} tools, ${bytes(added) - base} bytes (${bytes(added)} in all)`);
      expect(own.length, toolset).toBeGreaterThan(0);
    }
  });
});

const keyOf = (name: string) => Object.keys(TOOL_CATALOG).find((key) => TOOL_CATALOG[key].name === name)!;
