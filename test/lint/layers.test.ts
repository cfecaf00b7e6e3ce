// The lint rules that keep the layers apart (eslint.config.js) must fail the lint when broken.
// ESLint's Node API lints source text under a path of the tree, with the project's own config;
// the type-aware rules are off here (a new file is in no tsconfig yet, and they are not under
// test), the import rules resolve through the same TypeScript resolver as `npm run lint`.
import { ESLint, type Linter } from "eslint";
import { readdirSync } from "node:fs";
import { join } from "node:path";
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

  it("a route may not import storage/", async () => {
    const messages = await lint(
      "functions/src/routes/new-route.ts",
      'import { openSqliteStore } from "../storage/index.js";\nexport const used = openSqliteStore;\n',
    );
    expect(findings(messages, "import-x/no-restricted-paths")).toEqual([
      expect.stringContaining("Routes reach storage only through domain"),
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
