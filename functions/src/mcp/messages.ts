/**
 * What /mcp accepts of a JSON-RPC message before the SDK sees it, and what its errors may say.
 *
 * - One message per POST: a JSON array (a batch; the MCP specification of 2025-06-18 dropped
 *   them) is refused whole, so one POST is one operation to charge and one answer to build.
 * - Nesting is bounded (`MAX_NESTING`), checked without recursion: nothing after it (the SDK's
 *   schemas, the argument mapping, the REST validation) can exhaust the stack.
 * - The params of every method the server answers are checked with the SDK's own schemas, so a
 *   bad one is a -32602 naming the parameter instead of the SDK's dump of its schema errors.
 * - Every JSON-RPC error that leaves is one short line (`boundedError`): an internal failure
 *   says only "internal error".
 */
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCErrorResponse,
} from "@modelcontextprotocol/sdk/types.js";
import { nestsDeeperThan } from "../http/validate.js";

/** Deeper than any tool's arguments go (message, params, arguments, a field, its items). */
export const MAX_NESTING = 32;

/** Longest error message passed on as it is; anything longer is replaced by its code's. */
const MAX_MESSAGE_LENGTH = 200;

/** A JSON-RPC answer /mcp gives itself, without the SDK: its HTTP status and body. */
export interface DirectAnswer {
  status: number;
  body: JSONRPCErrorResponse;
}

type RequestId = string | number;
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The id of a request, or null when the message carries none a client could match. */
export function requestIdOf(message: unknown): RequestId | null {
  const id = isObject(message) ? message.id : undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : null;
}

/** The tool a `tools/call` names, or null for any other message. */
export function calledToolName(message: unknown): string | null {
  if (!isObject(message) || message.method !== "tools/call" || !isObject(message.params)) return null;
  return typeof message.params.name === "string" ? message.params.name : null;
}

export const jsonRpcError = (id: RequestId | null, code: number, message: string): JSONRPCErrorResponse => ({
  jsonrpc: "2.0",
  // The SDK's type has no null id; JSON-RPC answers null when the request's id is unknown.
  id: id as RequestId,
  error: { code, message },
});

/** The schemas of the requests this server answers; other methods are the SDK's -32601. */
const REQUEST_SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
} as const;

/** Why this message is refused before the SDK runs, or null to hand it on. */
export function refusalOf(message: unknown): DirectAnswer | null {
  if (Array.isArray(message)) {
    return {
      status: 400,
      body: jsonRpcError(
        null,
        ErrorCode.InvalidRequest,
        "batches are not supported: send one JSON-RPC message per POST",
      ),
    };
  }
  if (nestsDeeperThan(message, MAX_NESTING)) {
    return {
      status: 400,
      body: jsonRpcError(
        null,
        ErrorCode.InvalidRequest,
        `invalid request: the message nests deeper than ${MAX_NESTING} levels`,
      ),
    };
  }
  const id = requestIdOf(message);
  if (id === null || !isObject(message) || typeof message.method !== "string") return null;
  const schema = REQUEST_SCHEMAS[message.method as keyof typeof REQUEST_SCHEMAS] as
    (typeof REQUEST_SCHEMAS)[keyof typeof REQUEST_SCHEMAS] | undefined;
  if (!schema) return null;
  const checked = schema.safeParse(message);
  if (checked.success) return null;
  return { status: 200, body: jsonRpcError(id, ErrorCode.InvalidParams, invalidParamsMessage(checked.error.issues)) };
}

interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: unknown;
}

/** One sentence naming the first bad parameter: "invalid params: `params.name` must be a string". */
function invalidParamsMessage(issues: readonly Issue[]): string {
  const issue = issues[0];
  if (!issue) return "invalid params";
  const where = issue.path.length > 0 ? `\`${issue.path.map(String).join(".")}\`` : "the params";
  const expected = issue.expected === "record" ? "object" : issue.expected;
  const what =
    issue.code === "invalid_type" && typeof expected === "string"
      ? `must be ${article(expected)} ${expected}`
      : "is not valid";
  return `invalid params: ${where} ${what}`;
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? "an" : "a");

const INTERNAL_ERROR: number = ErrorCode.InternalError;

/** What an error says when its own message cannot be passed on. */
const GENERIC_MESSAGES: Record<number, string> = {
  // The transport's refusals of the HTTP request itself (Accept, Content-Type, protocol version).
  [ErrorCode.ConnectionClosed]: "bad request",
  [ErrorCode.ParseError]: "parse error: the body is not a JSON-RPC message",
  [ErrorCode.InvalidRequest]: "invalid request",
  [ErrorCode.MethodNotFound]: "method not found",
  [ErrorCode.InvalidParams]: "invalid params",
  [ErrorCode.InternalError]: "internal error; retry",
};

/**
 * A JSON-RPC error as it may leave: a standard code with one short line, never a stack trace,
 * an exception's text or a schema dump. An internal error, or a code the server does not use,
 * says only "internal error; retry" (the cause goes to the log, `onHidden`). The SDK's "MCP
 * error -32602: " prefix is dropped; `data` is dropped.
 */
export function boundedError(
  error: { code: number; message: string },
  onHidden: (message: string) => void,
): { code: number; message: string } {
  const known = error.code in GENERIC_MESSAGES && error.code !== INTERNAL_ERROR;
  if (!known) {
    onHidden(error.message);
    return { code: ErrorCode.InternalError, message: GENERIC_MESSAGES[ErrorCode.InternalError] };
  }
  const message = error.message.replace(/^MCP error -?\d+: /, "");
  const short = message.length > 0 && message.length <= MAX_MESSAGE_LENGTH && !/[\r\n]/.test(message);
  return { code: error.code, message: short ? message : GENERIC_MESSAGES[error.code] };
}

/**
 * The body of an HTTP error the transport answers itself (not through `send`: a refused Accept
 * header, an unparseable message), its JSON-RPC error bounded the same way.
 */
export function boundedErrorBody(text: string, onHidden: (message: string) => void): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isObject(body) || !isObject(body.error)) return text;
  const { code, message } = body.error;
  const error =
    typeof code === "number" && typeof message === "string"
      ? boundedError({ code, message }, onHidden)
      : { code: ErrorCode.InternalError, message: GENERIC_MESSAGES[ErrorCode.InternalError] };
  return JSON.stringify({ ...body, error });
}
