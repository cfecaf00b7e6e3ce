import { ERROR_STATUS } from "../http/errors.js";
import { UNROUTED_ERRORS, documentedErrors, errorEnvelope } from "./error-codes.js";
/**
 * Test-time guard that the documentation tells the truth: every JSON response is checked
 * against what the OpenAPI document promises for its operation (route.ts records the
 * operation in `res.locals.route`). A 200 must match `route.response`, with no field the
 * schema leaves out; an error must be the envelope with a code documented for that operation
 * under its own status. A violation is printed to stderr and replaces the response with a 500
 * that names it, so the test that caused it fails.
 */
export function checkResponses(report = (p) => console.error(p)) {
    return (req, res, next) => {
        const json = res.json.bind(res);
        res.json = (body) => {
            const route = res.locals.route;
            const problem = responseProblem(route, res.statusCode, body);
            if (!problem)
                return json(body);
            const message = `response contract violation on ${req.method} ${req.originalUrl} (${route ? `${route.method.toUpperCase()} ${route.path}` : "no route"}): ${problem}`;
            report(message);
            res.status(500);
            return json({ error: { code: "internal", message } });
        };
        next();
    };
}
/** What is wrong with this response for this operation, or null when it is as documented. */
export function responseProblem(route, status, body) {
    if (status === 200) {
        if (!route)
            return "a 200 answered outside any documented operation";
        return schemaProblem(route.response, body);
    }
    const allowed = route ? documentedErrors(route) : UNROUTED_ERRORS;
    const code = body?.error?.code;
    if (typeof code === "string" && code in ERROR_STATUS && !allowed.includes(code)) {
        return `status ${status} with code \`${code}\`, which is not documented for this operation (add it to the route's \`errors\`)`;
    }
    if (typeof code === "string" && ERROR_STATUS[code] !== status) {
        return `code \`${code}\` answered with status ${status}, documented as ${ERROR_STATUS[code]}`;
    }
    return schemaProblem(errorEnvelope(allowed), body);
}
function schemaProblem(schema, body) {
    const result = schema.safeParse(body);
    if (!result.success) {
        return result.error.issues
            .map((issue) => `\`${issue.path.map(String).join(".") || "(body)"}\` ${issue.message}`)
            .join("; ");
    }
    const extra = undocumentedFields(body, result.data, "");
    return extra.length > 0 ? `undocumented field${extra.length > 1 ? "s" : ""} ${extra.map((f) => `\`${f}\``).join(", ")}` : null;
}
/** Fields present in the body that the schema's parse dropped (zod objects strip unknown keys). */
function undocumentedFields(input, output, path) {
    if (Array.isArray(input) && Array.isArray(output)) {
        return input.flatMap((item, i) => undocumentedFields(item, output[i], `${path}[${i}]`));
    }
    if (!isPlainObject(input) || !isPlainObject(output))
        return [];
    return Object.entries(input).flatMap(([key, value]) => {
        const field = path ? `${path}.${key}` : key;
        if (value === undefined)
            return []; // JSON drops it
        return key in output ? undocumentedFields(value, output[key], field) : [field];
    });
}
const isPlainObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
//# sourceMappingURL=check-responses.js.map