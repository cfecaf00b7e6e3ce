// The lint rules that keep the layers apart (eslint.config.js) must fail the lint when broken.
// ESLint's Node API lints source text under a path of the tree, with the project's own config;
// the type-aware rules are off here (a new file is in no tsconfig yet, and they are not under
// test), the import rules resolve through the same TypeScript resolver as `npm run lint`.
import { ESLint, type Linter } from "eslint";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import tseslint from "typescript-eslint";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfig: [tseslint.configs.disableTypeChecked] });
});

async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result.messages;
}

const findings = (messages: Linter.LintMessage[], ruleId: string) =>
  messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);

describe("layer rules", () => {
  it("a new domain file may import neither http/, nor presenters/, nor express", async () => {
    const messages = await lint(
      "functions/src/domain/commands/new-command.ts",
      [
        'import { errors } from "../../http/errors.js";',
        'import { defineRoute } from "../../http/route.js";',
        'import { purposePreview } from "../../presenters/calendars.js";',
        'import type { Request } from "express";',
        "export const used = (req: Request) => [errors, defineRoute, purposePreview, req];",
        "",
      ].join("\n"),
    );
    const paths = findings(messages, "import-x/no-restricted-paths");
    expect(paths).toHaveLength(3);
    expect(paths.filter((m) => m.includes("does not import http/"))).toHaveLength(2);
    expect(paths.filter((m) => m.includes("does not import presenters/"))).toHaveLength(1);
    expect(findings(messages, "no-restricted-imports")).toEqual([
      expect.stringContaining("The domain knows no protocol"),
    ]);
  });

  it("the executor may not import express, and a command may not open a transaction", async () => {
    const executor = await lint(
      "functions/src/http/execute.ts",
      'import type { Request } from "express";\nexport const used = (req: Request) => req;\n',
    );
    expect(findings(executor, "no-restricted-imports")).toEqual([expect.stringContaining("knows no protocol")]);
    const command = await lint(
      "functions/src/domain/commands/new-command.ts",
      [
        'import type { Deps } from "../deps.js";',
        "export const write = (deps: Deps) => deps.store.runTransaction(async () => 1);",
        "",
      ].join("\n"),
    );
    expect(findings(command, "no-restricted-syntax")).toEqual([
      expect.stringContaining("runs in the transaction its caller opened"),
    ]);
    // Anywhere in the domain, background work included: jobs/ opens the transactions.
    const tick = await lint(
      "functions/src/domain/alarms/new-tick.ts",
      [
        'import type { Deps } from "../deps.js";',
        "export const tick = (deps: Deps) => deps.store.runTransaction(async () => 1);",
        "",
      ].join("\n"),
    );
    expect(findings(tick, "no-restricted-syntax")).toEqual([
      expect.stringContaining("runs in the transaction its caller opened"),
    ]);
    const job = await lint(
      "functions/src/jobs/new-job.ts",
      [
        'import type { Deps } from "../domain/deps.js";',
        "export const run = (deps: Deps) => deps.store.runTransaction(async () => 1);",
        "",
      ].join("\n"),
    );
    expect(findings(job, "no-restricted-syntax")).toEqual([]);
  });

  it("the domain neither runs background jobs nor sends: jobs/ and outbound/ are handed in, never imported", async () => {
    const messages = await lint(
      "functions/src/domain/webhooks/new-delivery.ts",
      [
        'import { createSender } from "../../outbound/send.js";',
        'import { startJob } from "../../jobs/local-driver.js";',
        "export const used = [createSender, startJob];",
        "",
      ].join("\n"),
    );
    expect(findings(messages, "import-x/no-restricted-paths")).toEqual([
      expect.stringContaining("does not import outbound/"),
      expect.stringContaining("does not import jobs/"),
    ]);
    const edge = await lint(
      "functions/src/http/new-middleware.ts",
      'import { purgeJob } from "../jobs/purge.js";\nexport const used = purgeJob;\n',
    );
    expect(findings(edge, "import-x/no-restricted-paths")).toEqual([expect.stringContaining("does not import jobs/")]);
  });

  it("nothing below the entry layer reads process.env: configuration comes on deps.config", async () => {
    const query = await lint(
      "functions/src/domain/queries/new-query.ts",
      "export const shards = () => Number(process.env.ALMANAC_REVISION_SHARDS ?? 8);\n",
    );
    expect(findings(query, "no-restricted-syntax")).toEqual([
      expect.stringContaining("Configuration is read once, at start, by functions/src/config.ts"),
    ]);
    // In a command the rule stands beside the one against opening a transaction.
    const command = await lint(
      "functions/src/domain/commands/new-command.ts",
      [
        'import type { Deps } from "../deps.js";',
        "export const write = (deps: Deps) => [process.env.QUOTA_EVENTS_PER_CALENDAR, deps.store.runTransaction(async () => 1)];",
        "",
      ].join("\n"),
    );
    expect(findings(command, "no-restricted-syntax")).toEqual([
      expect.stringContaining("take the setting from `deps.config`"),
      expect.stringContaining("runs in the transaction its caller opened"),
    ]);
    const edge = await lint("functions/src/http/new-middleware.ts", "export const on = process.env.RATE_LIMITS;\n");
    expect(findings(edge, "no-restricted-syntax")).toHaveLength(1);
    // The entry layer reads it: config.ts, and the composition roots that call readConfig(process.env).
    for (const entry of ["config.ts", "server.ts", "index.ts", "local-auth.ts"]) {
      const messages = await lint(`functions/src/${entry}`, "export const env = process.env;\n");
      expect(findings(messages, "no-restricted-syntax"), entry).toEqual([]);
    }
  });

  it("a route may not import storage/", async () => {
    const messages = await lint(
      "functions/src/routes/new-route.ts",
      'import { openSqliteStore } from "../storage/index.js";\nexport const used = openSqliteStore;\n',
    );
    expect(findings(messages, "import-x/no-restricted-paths")).toEqual([
      expect.stringContaining("Routes reach storage only through domain"),
    ]);
  });

  it("a presenter may not import routes/ (response schemas live in presenters/schemas/)", async () => {
    const messages = await lint(
      "functions/src/presenters/new-presenter.ts",
      'import { calendarParams } from "../routes/common.js";\nexport const used = calendarParams;\n',
    );
    expect(findings(messages, "import-x/no-restricted-paths")).toEqual([
      expect.stringContaining("Presenters own the shapes they produce: they do not import routes/"),
    ]);
  });

  it("http/ may not import the entry layers", async () => {
    const messages = await lint(
      "functions/src/http/new-middleware.ts",
      'import { apiRoutes } from "../routes/index.js";\nexport const used = apiRoutes;\n',
    );
    expect(findings(messages, "import-x/no-restricted-paths")).toEqual([
      expect.stringContaining("http/ does not import routes/"),
    ]);
  });

  it("storage may import neither the domain nor anything above it", async () => {
    const messages = await lint(
      "functions/src/storage/sqlite/new-part.ts",
      [
        'import { LAYOUT } from "../../domain/paths.js";',
        'import { ResponseCache } from "../../http/response-cache.js";',
        "export const used = [LAYOUT, ResponseCache];",
        "",
      ].join("\n"),
    );
    expect(findings(messages, "import-x/no-restricted-paths")).toEqual([
      expect.stringContaining("Storage is the bottom layer: it does not import domain/"),
      expect.stringContaining("Storage is the bottom layer: it does not import http/"),
    ]);
  });

  it("the domain may not import a storage adapter, only the port", async () => {
    const messages = await lint(
      "functions/src/domain/queries/new-query.ts",
      [
        'import type { Store } from "../../storage/port.js";',
        'import { SqliteStore } from "../../storage/sqlite/index.js";',
        "export const used = (store: Store) => [store, SqliteStore];",
        "",
      ].join("\n"),
    );
    expect(findings(messages, "import-x/no-restricted-paths")).toEqual([
      expect.stringContaining("The domain sees storage through its port"),
    ]);
  });

  it("a command may not import a query", async () => {
    const messages = await lint(
      "functions/src/domain/commands/new-command.ts",
      [
        'import { listGrants } from "../queries/grants.js";',
        'import { liveOwnersInTx } from "../grants.js";',
        "export const used = [listGrants, liveOwnersInTx];",
        "",
      ].join("\n"),
    );
    expect(findings(messages, "import-x/no-restricted-paths")).toEqual([
      expect.stringContaining("Commands do not import queries"),
    ]);
  });

  it("the same imports are fine outside the guarded layers", async () => {
    const messages = await lint(
      "functions/src/http/new-middleware.ts",
      [
        'import { openSqliteStore } from "../storage/index.js";',
        'import type { Request } from "express";',
        "export const used = (req: Request) => [openSqliteStore, req];",
        "",
      ].join("\n"),
    );
    expect(messages.filter((m) => m.severity === 2)).toEqual([]);
  });
});

describe("every domain file", () => {
  interface Zone {
    from: string;
  }
  const domainFiles = () =>
    readdirSync(join(ROOT, "functions/src/domain"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => `functions/src/domain/${file}`);
  const zonesFor = async (file: string): Promise<string[]> => {
    const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as Linter.Config;
    const [, options] = config.rules?.["import-x/no-restricted-paths"] as [unknown, { zones: Zone[] }];
    return options.zones.map((zone) => zone.from).sort();
  };

  it("is under the whole layer rule (no file is excused) and imports no protocol layer", async () => {
    const files = domainFiles();
    expect(files.length).toBeGreaterThan(20);
    const strictZones = await zonesFor("functions/src/domain/a-new-file.ts");
    expect(strictZones).toEqual(
      expect.arrayContaining(["http", "presenters", "routes", "openapi", "pages"].map((l) => `functions/src/${l}`)),
    );
    for (const file of files) expect(await zonesFor(file), file).toEqual(strictZones);
    const results = await eslint.lintFiles(files.map((file) => join(ROOT, file)));
    const refused = results.flatMap((result) =>
      findings(result.messages, "import-x/no-restricted-paths").map((message) => `${result.filePath}: ${message}`),
    );
    expect(refused).toEqual([]);
  });
});

describe("cycle check", () => {
  it("an import that closes a cycle through the tree is an error", async () => {
    // domain/ids.ts is imported (through http/) by app.ts; importing app.ts back closes a cycle.
    const messages = await lint(
      "functions/src/domain/ids.ts",
      'import { createApiApp } from "../app.js";\nexport const used = createApiApp;\n',
    );
    expect(findings(messages, "import-x/no-cycle")).toEqual([expect.stringContaining("Dependency cycle")]);
  });
});

/**
 * import-x/no-cycle skips type-only imports, so a cycle made of `import type` would pass the
 * lint: this graph of functions/src follows every relative import, types included.
 */
describe("import graph of functions/src, type imports included", () => {
  const SRC = join(ROOT, "functions/src");
  const graph = (): Map<string, string[]> => {
    const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    return new Map(
      files.map((file) => {
        const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), "utf8"), true, true);
        const targets = importedFiles
          .filter(({ fileName }) => fileName.startsWith("."))
          .map(({ fileName }) => resolve(dirname(join(SRC, file)), fileName).replace(/\.js$/, ".ts"))
          .filter((path) => existsSync(path))
          .map((path) => relative(SRC, path));
        return [file, targets];
      }),
    );
  };

  /** Strongly connected components of more than one file (Tarjan). */
  const cycles = (edges: Map<string, string[]>): string[][] => {
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const found: string[][] = [];
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      for (const w of edges.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) !== index.get(v)) return;
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    };
    for (const v of edges.keys()) if (!index.has(v)) visit(v);
    return found;
  };

  it("has no cycle", () => {
    const edges = graph();
    expect(edges.get("domain/errors.ts")).toContain("domain/quota-limits.ts");
    expect(cycles(edges)).toEqual([]);
  });

  it("would find one made of type imports only", () => {
    const edges = graph();
    // `import type { Deps }` in the leaf that deps.ts imports its configuration type from.
    edges.get("domain/config.ts")!.push("domain/deps.ts");
    expect(cycles(edges)).toEqual([["domain/config.ts", "domain/deps.ts"]]);
  });
});
