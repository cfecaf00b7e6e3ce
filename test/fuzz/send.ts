import { request as httpRequest } from "node:http";

/** One request exactly as the fuzzer built it: the path is sent byte for byte, never normalised. */
export interface RawRequest {
  method: string;
  /** Path and query as they go on the request line (may hold `..`, `%ZZ`, raw latin1 bytes). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Without a Content-Length: Node then sends the body as chunks. */
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

/** Answers later than this are abandoned (and reported) so one stuck request cannot hang the run. */
const GIVE_UP_MS = 15_000;

/** Sends over a real socket, so nothing between the fuzzer and the server rewrites the request. */
export function send(port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { ...req.headers };
    if (req.body && !req.chunked) headers["Content-Length"] = String(req.body.length);
    // Named, or Node's client sends a GET's or DELETE's body with no framing at all.
    if (req.body && req.chunked) headers["Transfer-Encoding"] = "chunked";
    const outgoing = httpRequest(
      { host: "127.0.0.1", port, method: req.method, path: req.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    outgoing.setTimeout(GIVE_UP_MS, () => outgoing.destroy(new Error(`no answer within ${GIVE_UP_MS} ms`)));
    outgoing.on("error", reject);
    if (req.chunked && req.body) {
      const half = Math.floor(req.body.length / 2);
      outgoing.write(req.body.subarray(0, half));
      outgoing.end(req.body.subarray(half));
    } else outgoing.end(req.body);
  });
}
