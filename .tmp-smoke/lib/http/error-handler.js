import { ContentionError } from "../storage/port.js";
import { ApiError, errors } from "./errors.js";
/** Maps anything thrown to the envelope; unexpected errors are logged and answered as a bare 500. */
export function toErrorResponse(err, deps) {
    const apiError = asApiError(err);
    if (!apiError) {
        deps.log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        const internal = errors.internal();
        return { status: internal.status, body: internal.toBody(), headers: {} };
    }
    return { status: apiError.status, body: apiError.toBody(), headers: apiError.headers };
}
function asApiError(err) {
    if (err instanceof ApiError)
        return err;
    if (err instanceof ContentionError)
        return errors.unavailable();
    // body-parser marks its errors with a `type`.
    const type = err?.type;
    if (type === "entity.parse.failed")
        return errors.invalidJson();
    if (type === "entity.too.large")
        return errors.payloadTooLarge();
    if (type === "encoding.unsupported" || type === "charset.unsupported")
        return errors.unsupportedMediaType();
    return null;
}
export function errorMiddleware(deps) {
    return (err, _req, res, next) => {
        if (res.headersSent)
            return next(err);
        const { status, body, headers } = toErrorResponse(err, deps);
        for (const [name, value] of Object.entries(headers))
            res.setHeader(name, value);
        res.status(status).json(body);
    };
}
/** A body on a write must be JSON; GET and DELETE bodies are ignored. */
export const requireJsonBody = (req, _res, next) => {
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (hasBody && (req.method === "POST" || req.method === "PATCH") && !req.is("application/json")) {
        return next(errors.unsupportedMediaType());
    }
    next();
};
//# sourceMappingURL=error-handler.js.map