/**
 * Slow clients cannot hold the local server's sockets (issue 9): a request whose headers, or
 * whose body, do not arrive in time is answered 408 and its socket closed. The timeouts are
 * injected short here; the defaults are in functions/src/server.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onFirestore, sqliteOnly } from "../helpers/app.js";
import { SERVER_TIMEOUTS, startLocalServer } from "../../functions/src/server.js";

let local: Awaited<ReturnType<typeof startLocalServer>>;
let port: number;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "almanac-timeouts-"));
  local = await startLocalServer({
    port: 0,
    dataDir,
    log: () => {},
    timeouts: { headersMs: 300, requestMs: 600, keepAliveMs: 200, checkIntervalMs: 50 },
  });
  port = (local.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await local.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Sends `text`, then nothing more; resolves with what the server said once it closed the socket. */
function stall(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1", () => socket.write(text));
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

describe.skipIf(onFirestore)(
  sqliteOnly("the local server's timeouts", "the local server runs on a SQLite file"),
  () => {
    it("closes a socket whose headers stop halfway", async () => {
      const answer = await stall("GET /v1/me HTTP/1.1\r\nHost: localhost\r\nX-Slow: ");
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    });

    it("closes a socket whose body stops halfway", async () => {
      const answer = await stall(
        "POST /v1/mint HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
          'Content-Length: 100\r\nIdempotency-Key: slow\r\n\r\n{"name":',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    });

    it("closes an idle kept-alive socket after a request", async () => {
      const answer = await stall("GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n");
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    });

    it("defaults to seconds, not minutes, with keep-alive shorter than the header timeout", () => {
      expect(SERVER_TIMEOUTS.headersMs).toBeLessThanOrEqual(20_000);
      expect(SERVER_TIMEOUTS.requestMs).toBeLessThanOrEqual(60_000);
      expect(SERVER_TIMEOUTS.keepAliveMs).toBeLessThan(SERVER_TIMEOUTS.headersMs);
    });
  },
);
