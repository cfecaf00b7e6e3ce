/**
 * Every tool argument is described in one line, from its zod schema, and /openapi.json shows the
 * same text for the same field (docs/mcp.md#tool-list-size). An object argument (`recur`, a view's
 * `filter`) is one line too: its own description, then each field as `name: description`.
 */
import { describe, expect, it } from "vitest";
import { TOOL_CATALOG, operationKey } from "../../functions/src/mcp/catalog.js";
import { FIELD_SEPARATOR } from "../../functions/src/mcp/listing-schema.js";
import { IDEMPOTENCY_ARGUMENT, buildTools, type Tool } from "../../functions/src/mcp/tools.js";
import { generateOpenApiDocument } from "../../functions/src/openapi/generate.js";
import { apiRoutes } from "../../functions/src/routes/index.js";

type Schema = { description?: string; properties?: Record<string, Schema>; required?: string[] };
type Parameter = { name: string; in: string; description?: string; $ref?: string };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
};

const tools = buildTools(apiRoutes);
const openApi = generateOpenApiDocument(apiRoutes, "https://almanac.test") as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters?: Record<string, Parameter> };
};

/** The schema /openapi.json gives the REST field behind a tool argument. */
function openApiField(tool: Tool, argument: string): Schema | undefined {
  const operation = openApi.paths[tool.route.path][tool.route.method];
  const parameters = (operation.parameters ?? []).map((p) =>
    p.$ref ? openApi.components.parameters![p.$ref.split("/").pop()!] : p,
  );
  const param = tool.pathParams.find((p) => p.argument === argument)?.param;
  if (param) return parameters.find((p) => p.in === "path" && p.name === param);
  if (tool.queryKeys.has(argument)) return parameters.find((p) => p.in === "query" && p.name === argument);
  const field = tool.bodyFields.get(argument);
  return field ? operation.requestBody?.content["application/json"].schema.properties?.[field] : undefined;
}

describe("tool argument descriptions", () => {
  it("gives every argument of every tool a one-line description", () => {
    for (const { listed } of tools) {
      for (const [argument, schema] of Object.entries(listed.inputSchema.properties)) {
        expect(schema.description, `${listed.name}.${argument}`).toMatch(/^[^\n]{3,}$/);
      }
    }
  });

  it("shows each argument's text as /openapi.json shows its field, nested fields included", () => {
    for (const tool of tools) {
      for (const [argument, schema] of Object.entries(tool.listed.inputSchema.properties)) {
        if (argument === IDEMPOTENCY_ARGUMENT) continue;
        const where = `${tool.listed.name}.${argument}`;
        // A list REST takes as comma-separated text is an array here, described as one.
        const list = TOOL_CATALOG[operationKey(tool.route.method, tool.route.path)].listArguments?.[argument];
        if (list) {
          expect(schema, where).toMatchObject({ type: "array", description: list.description });
          continue;
        }
        const field = openApiField(tool, argument);
        expect(field?.description, where).toMatch(/^[^\n]{3,100}$/);
        if (!field?.properties) {
          expect(schema.description, where).toBe(field?.description);
          continue;
        }
        const lines = Object.entries(field.properties).map(([name, nested]) => {
          expect(nested.description, `${where}.${name}`).toMatch(/^[^\n]{3,100}$/);
          expect(nested.description, `${where}.${name}`).not.toContain(FIELD_SEPARATOR);
          return `${name}${field.required?.includes(name) ? "" : "?"}: ${nested.description}`;
        });
        expect(schema.description, where).toMatch(new RegExp(`^${escape(field.description!)}: \\{`));
        for (const line of lines) expect(schema.description, where).toContain(line);
      }
    }
  });

  it("describes an object argument's fields in its line, enums and defaults included", () => {
    const createEvent = tools.find((tool) => tool.listed.name === "create_event")!.listed.inputSchema;
    expect(createEvent.properties.recur).not.toHaveProperty("properties");
    expect(createEvent.properties.recur.description).toContain("type: Period (daily|weekly|monthly|yearly)");
    expect(createEvent.properties.recur.description).toContain("interval?: Every n-th period, default 1");
    expect(createEvent.properties.recur.description).toContain("starts?: First date, default the creation day");
    const createView = tools.find((tool) => tool.listed.name === "create_view")!.listed.inputSchema;
    expect(createView.properties.filter.description).toContain("include_someday?: Default true");
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
