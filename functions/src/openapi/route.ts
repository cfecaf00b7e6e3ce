import { z } from "zod";
import { defineRoute, type AnyRoute } from "../http/route.js";
import type { OpenApiDocument } from "./generate.js";

/**
 * GET /openapi.json, itself documented. The generator (and zod-to-openapi) is imported on the
 * first request and the document kept, so it costs nothing at cold start.
 */
export function openApiRoute(routes: AnyRoute[]): AnyRoute {
  let document: Promise<OpenApiDocument> | undefined;
  const self: AnyRoute = defineRoute({
    method: "get",
    path: "/openapi.json",
    summary: "This OpenAPI 3.1 document, generated from the schemas that validate requests",
    tags: ["meta"],
    auth: "none",
    response: z.looseObject({ openapi: z.string(), info: z.looseObject({ version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
    errors: [],
    handler: async ({ deps }) => {
      document ??= import("./generate.js")
        .then(({ generateOpenApiDocument }) => generateOpenApiDocument([...routes, self], deps.baseUrl))
        .catch((err: unknown) => {
          document = undefined; // let the next request try again
          throw err;
        });
      return document;
    },
  });
  return self;
}
