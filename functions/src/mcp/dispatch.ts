/**
 * A tool call runs its operation through the executor (http/execute.ts), as a REST request
 * does: its arguments are split into the operation's path parameters, query and JSON body, and
 * authentication, scopes, validation, policy, idempotency and presenters are therefore REST's,
 * and so are the answers. Rate limits are not charged here: mcp/server.ts charged the call, as
 * this operation, before the SDK ran.
 */
import { createHash, randomUUID } from "node:crypto";
import { quote } from "../domain/errors.js";
import type { HttpDeps } from "../http/deps.js";
import { overlongQueryParam, overlongQueryError } from "../http/edge.js";
import { ApiError, httpErrors, withRequestId } from "../http/errors.js";
import { execute, type OperationRequest, type Outcome } from "../http/execute.js";
import type { OutcomeCheck } from "../http/express-routes.js";
import { canonical } from "../http/idempotency.js";
import { PreparedJson } from "../http/response-cache.js";
import { IDEMPOTENCY_ARGUMENT, type Tool } from "./tools.js";

/** Who calls, as the /mcp request shows it. */
export interface Caller {
  authorization: string | undefined;
  /** The /mcp answer's `X-Request-Id`: a tool's error envelope names it, as REST's does. */
  httpRequestId: string | undefined;
  /** The JSON-RPC id of the tools/call request. */
  requestId: string | number;
  /** Aborted when the /mcp client has gone (mcp/server.ts). */
  signal: AbortSignal;
}

/** The operation's answer: its status, its JSON text, and whether it replayed an earlier write. */
export interface Answer {
  status: number;
  json: string;
  replayed: boolean;
}

type Args = Record<string, unknown>;

export async function dispatch(
  deps: HttpDeps,
  tool: Tool,
  args: Args,
  caller: Caller,
  check?: OutcomeCheck,
): Promise<Answer> {
  const request = operationRequest(tool, args, caller);
  if (request instanceof ApiError)
    return {
      status: request.status,
      json: JSON.stringify(withRequestId(request.toBody(), caller.httpRequestId)),
      replayed: false,
    };
  const executed = await execute(tool.route, request, deps);
  const outcome = check ? check(tool.route, executed, caller.httpRequestId) : executed;
  return { status: outcome.status, json: jsonOf(outcome), replayed: outcome.headers["Idempotent-Replayed"] === "true" };
}

const jsonOf = ({ body }: Outcome): string =>
  body instanceof PreparedJson ? body.body.toString("utf8") : JSON.stringify(body);

/** The operation's request of a call, or the error of arguments that cannot make one. */
function operationRequest(tool: Tool, args: Args, caller: Caller): OperationRequest | ApiError {
  const { route } = tool;
  // REST's own refusal names its route to mint (POST /v1/mint); a model here has the tool.
  if (route.auth === "required" && !caller.authorization) return httpErrors.unauthorized(NO_TOKEN);
  const params: Record<string, string> = {};
  for (const { param, argument } of tool.pathParams) {
    const value = args[argument];
    if (typeof value !== "string" || value === "") {
      return argumentError(argument, `\`${argument}\` is required: a string such as the API returned it`);
    }
    params[param] = value;
  }
  const pathArguments = new Set(tool.pathParams.map(({ argument }) => argument));
  const query: Record<string, string> = {};
  const body: Args = {};
  for (const [key, value] of Object.entries(args)) {
    if (pathArguments.has(key) || key === IDEMPOTENCY_ARGUMENT) continue;
    const field = tool.bodyFields.get(key);
    if (tool.queryKeys.has(key)) {
      if (value !== null && value !== undefined) query[key] = queryValue(value);
    } else if (field !== undefined) {
      body[field] = value;
    } else if (renamedFields(tool).has(key)) {
      // The REST name of a renamed field: refused, or `calendar_id` and `layer_calendar_id` could disagree.
      const argument = [...tool.bodyFields].find(([, f]) => f === key)![0];
      return argumentError(key, `\`${key}\` is \`${argument}\` in ${tool.listed.name}`);
    } else if (route.body) {
      // Unknown arguments go to the body too, so the operation names them exactly as REST would.
      body[key] = value;
    } else {
      const known = [...pathArguments, ...tool.queryKeys].map((k) => `\`${k}\``).join(", ") || "none";
      return argumentError(
        quote(key),
        `\`${quote(key)}\` is not an argument of ${tool.listed.name}; its arguments: ${known}`,
      );
    }
  }
  const overlong = overlongQueryParam(query);
  if (overlong !== null) return ApiError.from(overlongQueryError(overlong));
  const explicitKey = args[IDEMPOTENCY_ARGUMENT];
  return {
    params,
    query,
    body: route.body ? body : undefined,
    authorization: caller.authorization,
    idempotencyKey:
      route.method !== "post"
        ? undefined
        : typeof explicitKey === "string"
          ? explicitKey
          : derivedKey(tool.listed.name, args, caller),
    client: { signal: caller.signal, requestId: caller.httpRequestId },
  };
}

/**
 * The Idempotency-Key of a write whose caller named none. With a token it is derived from the
 * JSON-RPC request id and the arguments, so a resend of the same request (same id, same
 * arguments: a transport retry) is answered by a replay, while a new call, even with the same
 * arguments, acts anew as the model meant it to. The key's scope is the token's agent
 * (docs/api.md#idempotency), so two agents never share one. Without a token (mint) every caller
 * shares the anonymous scope, where ids and arguments repeat across clients: such a write
 * gets a fresh key, and only an explicit `idempotency_key` makes it replayable.
 */
function derivedKey(toolName: string, args: Args, caller: Caller): string {
  if (caller.authorization === undefined) return `mcp-${randomUUID()}`;
  const digest = createHash("sha256")
    .update(JSON.stringify([toolName, caller.requestId, canonical(args)]))
    .digest("base64url");
  return `mcp-${digest}`;
}

const NO_TOKEN =
  "this tool needs a token: connect to /mcp with the header `Authorization: Bearer <token>`; " +
  "no token yet? the mint_agent tool makes an agent and its token";

/** Query parameters are text: a list is sent comma-separated (`calendars=a,b`), an object as JSON. */
function queryValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(queryValue).join(",");
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** Body fields whose argument has another name (catalog.ts, `bodyArguments`). */
const renamedFields = (tool: Tool): Set<string> =>
  new Set([...tool.bodyFields].filter(([argument, field]) => argument !== field).map(([, field]) => field));

const argumentError = (field: string, message: string) => new ApiError("invalid_request", message, { field });
