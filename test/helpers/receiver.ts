/** A webhook receiver on a loopback port for tests: it keeps every request and answers what the test says. */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status (and headers) of the next answers, after `delayMs` if given; 204 by default. */
  answer: (req: Received) => { status: number; headers?: Record<string, string>; delayMs?: number };
  close: () => Promise<void>;
}

export async function startReceiver(path = "/hooks"): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    received: [],
    answer: () => ({ status: 204 }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const got = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      receiver.received.push(got);
      const { status, headers, delayMs = 0 } = receiver.answer(got);
      setTimeout(() => res.writeHead(status, headers).end(), delayMs);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
