import { z } from "zod";
import { defineRoute, type AnyRoute } from "../http/route.js";
import { PreparedJson } from "../http/response-cache.js";

/**
 * GET /openapi.json, itself documented. The generator (and zod-to-openapi) is imported on the
 * first request and the document kept, serialized once, so it costs nothing at cold start
 * and no serializing after.
 */
export function openApiRoute(routes: AnyRoute[]): AnyRoute {
  let document: Promise<PreparedJson> | undefined;
  const self: AnyRoute = defineRoute({
    method: "get",
    path: "/openapi.json",
    summary: "This OpenAPI 3.1 document, generated from the schemas that validate requests",
    tags: ["meta"],
    auth: "none",
    response: z.looseObject({
      openapi: z.string(),
      info: z.looseObject({ version: z.string() }),
      paths: z.record(z.string(), z.unknown()),
    }),
    errors: [],
    handler: async ({ deps }) => {
      document ??= import("./generate.js")
        .then(({ generateOpenApiDocument }) => generateOpenApiDocument([...routes, self], deps.baseUrl))
        .then((generated) => new PreparedJson(Buffer.from(JSON.stringify(generated))))
        .catch((err: unknown) => {
          document = undefined; // let the next request try again
          throw err;
        });
      return document;
    },
  });
  return self;
}
