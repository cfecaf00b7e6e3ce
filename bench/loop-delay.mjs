// The longest the event loop of a server in a child process was held since the last ask: what
// one request or job cost every other request. The child answers (`answerLoopDelay`), the parent
// asks (`loopDelayOf(child)`), over the IPC channel of `fork`.
import { monitorEventLoopDelay } from "node:perf_hooks";

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
