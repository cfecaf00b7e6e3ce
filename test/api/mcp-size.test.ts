/**
 * tools/list is read into the model's context on every session, so its size is a cost paid
 * before any work: it must stay under a budget (docs/mcp.md#tool-list-size).
 */
import { describe, expect, it } from "vitest";
import { buildTools } from "../../functions/src/mcp/tools.js";
import { apiRoutes } from "../../functions/src/routes/index.js";

/**
 * 40 tools, 158 arguments each with a one-line description, every tool with its use and guide:
 * what is left is mostly that text and JSON Schema's own keys (docs/mcp.md#tool-list-size).
 */
const BUDGET = 32 * 1024;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("tools/list size", () => {
  it(`stays within ${BUDGET} bytes, as the server answers it`, () => {
    const tools = buildTools(apiRoutes).map((tool) => tool.listed);
    const total = bytes({ tools });
    const largest = tools
      .map((tool) => ({ name: tool.name, bytes: bytes(tool), inputSchema: bytes(tool.inputSchema) }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5);
    console.log(`tools/list: ${total} bytes for ${tools.length} tools; largest:`);
    for (const tool of largest) console.log(`  ${tool.name}: ${tool.bytes} bytes (input schema ${tool.inputSchema})`);
    expect(total).toBeLessThanOrEqual(BUDGET);
  });
});
