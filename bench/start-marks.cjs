// Where a start of the local server goes, as marks in ms since the process began, printed to
// stderr once the first response is sent:
//   PORT=8899 DATA_DIR=$(mktemp -d) ALMANAC_AUTH_EMULATOR=off \
//     node --require ./bench/start-marks.cjs <npm start's flags> functions/dist/start.cjs
// then ask it anything (curl localhost:8899/v1/me). `--require` is not a V8 flag, so the code
// cache stays valid. Marks: entry (start.cjs begins), compile (the bundle read and compiled,
// from the cache when cacheUsed), evaluated (its top level run), listening, request (the first
// arrives), answered (its response sent).
// A --require preload is CommonJS (one given with --import would load the ES module loader first).
/* eslint-disable @typescript-eslint/no-require-imports */
const http = require("node:http");
const vm = require("node:vm");
/* eslint-enable @typescript-eslint/no-require-imports */

const marks = { entry: performance.now() };
const round = (ms) => Math.round(ms);

vm.Script = class extends vm.Script {
  constructor(...args) {
    marks.compileStart = performance.now();
    super(...args);
    marks.compiled = performance.now();
    marks.cacheUsed = args[1]?.cachedData !== undefined && !this.cachedDataRejected;
  }
  runInThisContext(...args) {
    const wrapper = super.runInThisContext(...args);
    return (...wrapperArgs) => {
      const result = wrapper(...wrapperArgs);
      marks.evaluated = performance.now();
      return result;
    };
  }
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
