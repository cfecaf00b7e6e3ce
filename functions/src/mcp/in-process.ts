/**
 * One HTTP request served by a Node request listener (the API's Express app) inside this
 * process, without a socket: Node's own IncomingMessage and ServerResponse, the body pushed
 * into the request, the answer's body caught as the app writes it.
 *
 * Why not light-my-request: to serve an Express app it re-parents Express's shared response
 * prototype onto its own, which would break every real response of the process. Here the
 * capture is two own properties of the one response object, which Express's prototype swap
 * (app.handle sets the prototypes of req and res) leaves in place.
 */
import { EventEmitter } from "node:events";
import { IncomingMessage, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import { markCharged } from "../http/rate-limit.js";

export interface InProcessRequest {
  method: string;
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
  /** The peer address the app sees (`req.socket.remoteAddress`, hence `req.ip`). */
  remoteAddress?: string;
  /** The operation was charged to the rate limits already (http/rate-limit.ts `markCharged`). */
  charged?: boolean;
  /** Aborted when the caller has gone: the response closes as a dropped connection's does. */
  signal?: AbortSignal;
}

export interface InProcessResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export function serveInProcess(listener: Listener, request: InProcessRequest): Promise<InProcessResponse> {
  return new Promise((resolve, reject) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
    const req = new IncomingMessage(peer(request.remoteAddress));
    if (request.charged) markCharged(req);
    req.method = request.method;
    req.url = request.url;
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = "1.1";
    req.headers = body ? { ...request.headers, "content-length": String(body.length) } : { ...request.headers };
    req.rawHeaders = Object.entries(req.headers).flatMap(([name, value]) => [name, String(value)]);
    if (body) req.push(body);
    req.push(null);
    req.complete = true;

    const res = new ServerResponse(req);
    res.assignSocket(discardingSocket());
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      if (Buffer.isBuffer(chunk)) chunks.push(chunk);
      else if (typeof chunk === "string")
        chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
      else chunks.push(Buffer.from(chunk as Uint8Array));
    };
    // Own properties: they outlive Express's prototype swap. The body never reaches the socket;
    // Node's end() still runs, so the headers are final and 'finish' fires (the request log).
    res.write = ((chunk: unknown, encoding?: unknown, done?: () => void) => {
      keep(chunk, encoding);
      if (typeof encoding === "function") (encoding as () => void)();
      else done?.();
      return true;
    }) as ServerResponse["write"];
    res.end = ((chunk?: unknown, encoding?: unknown, done?: () => void) => {
      keep(chunk, encoding);
      const callback = [chunk, encoding, done].find((arg) => typeof arg === "function") as (() => void) | undefined;
      ServerResponse.prototype.end.call(res, undefined, "utf8", callback);
      return res;
    }) as ServerResponse["end"];
    const { signal } = request;
    // 'close' before 'finish', as when a client drops its socket: a waiting operation stops.
    const drop = () => {
      res.destroy();
      reject(new Error("the caller has gone"));
    };
    res.once("finish", () => {
      signal?.removeEventListener("abort", drop);
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      resolve({ status: res.statusCode, headers: res.getHeaders(), body: body.toString("utf8") });
    });
    if (signal?.aborted) return drop();
    signal?.addEventListener("abort", drop, { once: true });
    try {
      listener(req, res);
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/**
 * What the request knows of its connection: the peer's address, not TLS, and open (body-parser
 * reads no body from a request whose connection is no longer readable).
 */
function peer(remoteAddress: string | undefined): IncomingMessage["socket"] {
  const socket = Object.assign(new EventEmitter(), {
    remoteAddress,
    encrypted: false,
    readable: true,
    resume() {},
    pause() {},
    destroy() {},
  });
  return socket as unknown as IncomingMessage["socket"];
}

/** The response's socket: takes Node's header bytes and drops them. */
function discardingSocket(): IncomingMessage["socket"] {
  return new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as IncomingMessage["socket"];
}
