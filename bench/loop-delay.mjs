// What one request or job costs every other request of a server in a child process: the longest
// its event loop was held since the last ask (the child answers with `answerLoopDelay`, the
// parent asks with `loopDelayOf(child)`, over the IPC channel of `fork`), and how long a cheap
// request asked again and again beside it waited (`pingEvery`).
import { get } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * In a forked child: the local server (functions/lib, with its jobs) on DATA_DIR, answering its
 * event-loop delay, its origin sent to the parent once it listens.
 */
export async function serveLocalServer() {
  const lib = new URL("../functions/lib/", import.meta.url).href;
  const { startLocalServer } = await import(`${lib}server.js`);
  const { server } = await startLocalServer({ port: 0, dataDir: process.env.DATA_DIR, log: () => {} });
  answerLoopDelay();
  process.on("SIGTERM", () => process.exit(0));
  process.send({ origin: `http://127.0.0.1:${server.address().port}` });
}

/** In the child: measure the event loop's delays and answer their longest since the last ask. */
export function answerLoopDelay() {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  process.on("message", (m) => {
    if (!m.loopDelay) return;
    process.send({ loopMaxMs: Math.round(loop.max / 1e6) });
    loop.reset();
  });
}

/** In the parent: a function answering the child's longest event-loop delay since the last call, in ms. */
export const loopDelayOf = (child) => () =>
  new Promise((done) => {
    child.once("message", (m) => done(m.loopMaxMs));
    child.send({ loopDelay: true });
  });

/** Asks `url` every `everyMs` on its own, one at a time; `stop()` gives the answers' p99 and slowest. */
export function pingEvery(url, everyMs) {
  const times = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      // A connection of its own each time: never queued behind the measured request on the client side.
      const status = await new Promise((done, fail) =>
        get(url, { agent: false }, (res) => res.resume().on("end", () => done(res.statusCode))).on("error", fail),
      );
      if (status !== 200) throw new Error(`${url} answered ${status}`);
      times.push(performance.now() - started);
      await new Promise((done) => setTimeout(done, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const sorted = times.sort((a, b) => a - b);
      const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
      return { p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0), count: sorted.length };
    },
  };
}
