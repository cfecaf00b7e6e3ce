import express from "express";
import { errors } from "./http/errors.js";
import { errorMiddleware, requireJsonBody } from "./http/error-handler.js";
import { expressPath, mountRoutes } from "./http/route.js";
import { checkResponses } from "./openapi/check-responses.js";
import { openApiRoute } from "./openapi/route.js";
import { apiRoutes } from "./routes/index.js";
const BODY_LIMIT = "64kb";
export function createApiApp(deps, routes = apiRoutes, options = {}) {
    const app = express();
    app.disable("x-powered-by");
    app.set("etag", false);
    app.set("query parser", "simple");
    if (options.checkResponses)
        app.use(checkResponses());
    app.use(requestLog(deps));
    app.use(cors);
    app.use(requireJsonBody);
    app.use(express.json({
        limit: BODY_LIMIT,
        type: "application/json",
        verify: (req, _res, buf) => {
            req.rawBody = buf.toString("utf8");
        },
    }));
    const router = express.Router();
    const operations = [...routes, openApiRoute(routes)];
    mountRoutes(router, deps, operations);
    answerWrongMethods(router, operations);
    app.use(router);
    app.use((req, _res, next) => next(errors.routeNotFound(req.method, req.path)));
    app.use(errorMiddleware(deps));
    return app;
}
function answerWrongMethods(router, routes) {
    const methodsByPath = new Map();
    for (const r of routes) {
        const path = expressPath(r.path);
        methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), r.method.toUpperCase()]);
    }
    for (const [path, methods] of methodsByPath) {
        router.all(path, (req, _res, next) => next(errors.methodNotAllowed(req.method, methods)));
    }
}
const cors = (req, res, next) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (req.method !== "OPTIONS")
        return next();
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE");
    res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key");
    res.setHeader("Access-Control-Max-Age", "86400");
    res.status(204).end();
};
/** One line per request; never headers or bodies, which may carry tokens. */
function requestLog(deps) {
    return (req, res, next) => {
        const started = process.hrtime.bigint();
        res.on("finish", () => {
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            deps.log(`${req.method} ${req.path} ${res.statusCode} ${ms.toFixed(1)}ms`);
        });
        next();
    };
}
//# sourceMappingURL=app.js.map