// Where a start of the local server goes, as marks in ms since the process began, printed to
// stderr once the first response is sent:
//   PORT=8899 DATA_DIR=$(mktemp -d) ALMANAC_AUTH_EMULATOR=off \
//     node --require ./bench/start-marks.cjs <npm start's flags> functions/dist/server.cjs
// then ask it anything (curl localhost:8899/v1/me). Marks: entry (this preload runs),
// compileStart (the bundle read), evaluated (it compiled and its top level run), listening,
// request (the first arrives), answered (its response sent).
// A --require preload is CommonJS (one given with --import would load the ES module loader first).
/* eslint-disable @typescript-eslint/no-require-imports */
const http = require("node:http");
const Module = require("node:module");
/* eslint-enable @typescript-eslint/no-require-imports */

const marks = { entry: performance.now() };
const round = (ms) => Math.round(ms);

const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  if (!filename.endsWith("server.cjs")) return compile.call(this, content, filename);
  marks.compileStart = performance.now();
  const result = compile.call(this, content, filename);
  marks.evaluated = performance.now();
  return result;
};

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  this.once("listening", () => (marks.listening = performance.now()));
  this.once("request", (_req, res) => {
    marks.request = performance.now();
    res.once("finish", () => {
      marks.answered = performance.now();
      const shown = Object.entries(marks).map(([k, v]) => [k, typeof v === "number" ? round(v) : v]);
      console.error(JSON.stringify(Object.fromEntries(shown)));
    });
  });
  return listen.apply(this, args);
};
