import { authenticate } from "./auth.js";
import { errors } from "./errors.js";
import { toErrorResponse } from "./error-handler.js";
import { claimKey, fingerprint, idempotencyPath, settleKey } from "./idempotency.js";
import { parseInput } from "./validate.js";
export const defineRoute = (def) => def;
export const expressPath = (path) => path.replace(/\{(\w+)\}/g, ":$1");
export function mountRoutes(router, deps, routes) {
    for (const route of routes) {
        router[route.method](expressPath(route.path), (req, res) => handle(route, deps, req, res));
    }
}
async function handle(route, deps, req, res) {
    res.locals.route = route; // the operation answering, for the response check of the tests
    const actor = route.auth === "none" ? null : await authenticate(deps, req.get("authorization"));
    if (route.auth === "required" && !actor)
        throw errors.unauthorized();
    if (route.scope && actor && !actor.scopes.includes(route.scope))
        throw errors.insufficientScope(route.scope);
    if (route.method !== "post") {
        send(res, 200, await run(route, deps, actor, req));
        return;
    }
    const keyPath = idempotencyPath(req.get("idempotency-key"), actor?.agentId ?? null);
    const rawBody = rawBodyOf(req);
    const claim = await claimKey(deps, keyPath, fingerprint(req.method, req.path, rawBody));
    if (claim.kind === "replay") {
        res.setHeader("Idempotent-Replayed", "true");
        send(res, claim.status, claim.body);
        return;
    }
    let status = 200;
    let body;
    try {
        body = await run(route, deps, actor, req);
    }
    catch (err) {
        const response = toErrorResponse(err, deps);
        status = response.status;
        body = response.body;
        for (const [name, value] of Object.entries(response.headers))
            res.setHeader(name, value);
    }
    await settleKey(deps, keyPath, status, body);
    send(res, status, body);
}
async function run(route, deps, actor, req) {
    const code = route.invalidCode ?? "invalid_request";
    const params = route.params ? parseInput(route.params, req.params, "invalid_request", "path") : req.params;
    const query = route.query ? parseInput(route.query, req.query, "invalid_request", "query") : {};
    let body;
    if (route.body) {
        const raw = req.body === undefined && route.bodyOptional ? {} : req.body;
        if (raw === undefined)
            throw errors.invalid(code, "send a JSON object body with `Content-Type: application/json`");
        body = parseInput(route.body, raw, code, "body");
    }
    return route.handler({ deps, actor, params, query, body });
}
/** Our JSON parser keeps the text; inside Cloud Functions the framework keeps a Buffer. */
function rawBodyOf(req) {
    const raw = req.rawBody;
    return raw === undefined ? "" : raw.toString();
}
function send(res, status, body) {
    res.status(status).json(body);
}
//# sourceMappingURL=route.js.map