import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../../..");

/** The first ```ts block of docs/runtime.md: the "wrap one flaky HTTP tool" example. */
function firstExample(): string {
  const doc = readFileSync(path.join(repo, "docs/runtime.md"), "utf8");
  const match = /```ts\n([\s\S]*?)```/.exec(doc);
  if (!match?.[1]) throw new Error("docs/runtime.md has no ts block");
  return match[1];
}

describe("docs/runtime.md", () => {
  it("opens with a short example that compiles under strict TypeScript against the package's entry point", () => {
    const code = firstExample();
    const lines = code.trim().split("\n").filter((l) => l.trim() !== "");
    expect(lines.length).toBeLessThanOrEqual(22);
    expect(code).toContain('from "@faultline/runtime"');
    const file = path.join(repo, "test/unit/runtime/__docs_example__.ts");
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      types: ["node"],
      skipLibCheck: true,
      baseUrl: repo,
      paths: { "@faultline/runtime": ["lib/runtime/index.ts"] },
    };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version, onError, create) =>
      path.resolve(name) === file ? ts.createSourceFile(name, code, version) : getSourceFile(name, version, onError, create);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
    const program = ts.createProgram([file], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? path.relative(repo, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  }, 60_000);
});
