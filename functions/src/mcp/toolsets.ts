/**
 * Which tools tools/list shows (docs/mcp.md#toolsets). The default toolset, everyday
 * scheduling, is always listed; a client adds named toolsets with `?toolsets=sharing,views` on
 * the /mcp URL or the header `X-MCP-Toolsets`, and `all` lists every tool. A listing only
 * saves the model's context: tools/call runs any tool by name, listed or not, and the server's
 * instructions name every toolset's tools.
 */
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { quote } from "../domain/errors.js";
import { TOOLSETS, type ToolsetName } from "./catalog.js";
import { jsonRpcError, requestIdOf, type DirectAnswer } from "./messages.js";
import type { ListedTool, Tool } from "./tools.js";

export const TOOLSETS_QUERY = "toolsets";
export const TOOLSETS_HEADER = "X-MCP-Toolsets";
const ALL = "all";

const NAMES = Object.keys(TOOLSETS) as ToolsetName[];
const isToolset = (name: string): name is ToolsetName => (NAMES as string[]).includes(name);

/** The toolsets asked for, `default` always among them; or the first name that is no toolset. */
export function requestedToolsets(
  query: unknown,
  header: string | undefined,
): { toolsets: ReadonlySet<ToolsetName> } | { unknown: string } {
  // `?toolsets=a,b`, `?toolsets=a&toolsets=b` (an array) and the header, all together.
  const texts = [query, header].flat().filter((text): text is string => typeof text === "string");
  const names = texts.flatMap((text) => text.split(",").map((name) => name.trim().toLowerCase()));
  const toolsets = new Set<ToolsetName>(["default"]);
  for (const name of names.filter((name) => name !== "")) {
    if (name === ALL) NAMES.forEach((all) => toolsets.add(all));
    else if (isToolset(name)) toolsets.add(name);
    else return { unknown: name };
  }
  return { toolsets };
}

/**
 * The refusal of a request that names an unknown toolset, whatever its message: a client
 * learns at `initialize` that its URL or header is wrong, with the names that are right.
 */
export function unknownToolsetAnswer(message: unknown, name: string): DirectAnswer {
  const valid = [...NAMES.filter((toolset) => toolset !== "default"), ALL].join(", ");
  return {
    status: 400,
    body: jsonRpcError(
      requestIdOf(message),
      ErrorCode.InvalidRequest,
      `unknown toolset \`${quote(name, 40)}\` in ?${TOOLSETS_QUERY}= or ${TOOLSETS_HEADER}; ` +
        `toolsets: ${valid} (the default tools are always listed)`,
    ),
  };
}

/** The tools/list answer of each selection, built on first use. */
export function listingsOf(tools: readonly Tool[]): (toolsets: ReadonlySet<ToolsetName>) => { tools: ListedTool[] } {
  const built = new Map<string, { tools: ListedTool[] }>();
  return (toolsets) => {
    const key = [...toolsets].sort().join(",");
    let listing = built.get(key);
    if (!listing) {
      listing = { tools: tools.filter((tool) => toolsets.has(tool.toolset)).map((tool) => tool.listed) };
      built.set(key, listing);
    }
    return listing;
  };
}

/** The instructions' paragraph on toolsets: what is listed, the other sets and their tools, how to list them. */
export function toolsetGuide(tools: readonly Tool[]): string {
  const others = NAMES.filter((toolset) => toolset !== "default").map((toolset) => {
    const names = tools.filter((tool) => tool.toolset === toolset).map((tool) => tool.listed.name);
    return `${toolset} (${TOOLSETS[toolset]}): ${names.join(", ")}`;
  });
  return [
    `tools/list shows the default toolset (${TOOLSETS.default}).`,
    `The other toolsets: ${others.join("; ")}.`,
    "Call any tool by name whether it is listed or not. To list a toolset's tools with their arguments,",
    `connect to /mcp?${TOOLSETS_QUERY}=sharing,views or send the header \`${TOOLSETS_HEADER}: sharing,views\``,
    `(\`${ALL}\`: every tool).`,
  ].join(" ");
}
