// The write-route check: every POST, PUT, PATCH and DELETE an app route file serves is built with
// `defineMutation` (server/http/define-mutation.ts), or is one of the named exceptions below. Used by
// `npm run lint` (the eslint rule `faultline/write-routes`, on app/**/route.ts) and by
// test/unit/server/write-routes.test.ts, which also lists what it finds on disk.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"];

/** The factories a write method may come from instead of `defineMutation`, and why. */
export const NOT_MUTATIONS = {
  ingestRoute: "ingest: agents append telemetry with a project key; no session, no person's change to audit",
  readByPost: "a read whose query is a body (the gate's contract document, a rule preview's params): it changes nothing",
};

/** Handlers that only refuse (405 with Allow, or the catch-all 404). */
const REFUSALS = new Set(["otherMethods", "notFoundRoute"]);

const calleeName = (node) => (node && ts.isCallExpression(node) && ts.isIdentifier(node.expression) ? node.expression.text : null);
const isExported = (statement) => ts.isVariableStatement(statement) && (statement.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const parse = (file, source) => ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** `/api/v1/x/[id]` for `app/api/v1/x/[id]/route.ts`. */
export const templateOf = (file) => {
  const dir = path.posix.dirname(file.split(path.sep).join("/")).replace(/^app\/?/, "");
  return `/${dir}`;
};

/** The callee of each `export const name = callee(…)` of a server route module. */
function exportedBuilders(source, file) {
  const builders = new Map();
  for (const statement of parse(file, source).statements) {
    if (!isExported(statement)) continue;
    for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) builders.set(d.name.text, calleeName(d.initializer));
  }
  return builders;
}

/**
 * Checks one app route file. `readModule(specifier)` answers `{ file, source }` of an imported
 * server route module (or null). Answers the file's writes (`{ method, route, handler, kind }`,
 * kind `mutation` or a key of NOT_MUTATIONS) and its problems (`{ method, message, start, end }`).
 */
export function checkRouteFile(file, source, readModule) {
  const sf = parse(file, source);
  const route = templateOf(file);
  const imports = new Map();
  for (const statement of sf.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause?.namedBindings || !ts.isNamedImports(statement.importClause.namedBindings)) continue;
    for (const element of statement.importClause.namedBindings.elements) imports.set(element.name.text, { specifier: statement.moduleSpecifier.text, name: (element.propertyName ?? element.name).text });
  }
  const writes = [];
  const problems = [];
  const problem = (method, node, message) => problems.push({ method, message: `${method} ${route}: ${message}`, start: node.getStart(sf), end: node.getEnd() });
  for (const statement of sf.statements) {
    if (!isExported(statement)) continue;
    for (const d of statement.declarationList.declarations) {
      if (ts.isObjectBindingPattern(d.name)) {
        const methods = d.name.elements.map((e) => (e.propertyName ?? e.name).getText(sf)).filter((m) => WRITE_METHODS.includes(m));
        if (methods.length > 0 && !REFUSALS.has(calleeName(d.initializer))) for (const m of methods) problem(m, d, "a write method must be one export built with defineMutation");
        continue;
      }
      if (!ts.isIdentifier(d.name) || !WRITE_METHODS.includes(d.name.text)) continue;
      const method = d.name.text;
      const direct = calleeName(d.initializer);
      if (direct !== null && direct in NOT_MUTATIONS) {
        writes.push({ method, route, handler: direct, kind: direct });
        continue;
      }
      const imported = d.initializer && ts.isIdentifier(d.initializer) ? imports.get(d.initializer.text) : undefined;
      if (!imported || !imported.specifier.startsWith("@/server/routes/")) {
        problem(method, d, "export a handler defined with defineMutation in server/routes/ (`export const POST = myChange;`)");
        continue;
      }
      const module = readModule(imported.specifier);
      const builder = module ? exportedBuilders(module.source, module.file).get(imported.name) : undefined;
      if (builder === "defineMutation" || (builder && builder in NOT_MUTATIONS)) {
        writes.push({ method, route, handler: `${imported.specifier.slice(2)}#${imported.name}`, kind: builder === "defineMutation" ? "mutation" : builder });
      } else {
        problem(method, d, `${imported.name} (${imported.specifier.slice(2)}.ts) is ${builder ? `built with ${builder}` : "not an exported const"}, not with defineMutation`);
      }
    }
  }
  return { writes, problems };
}

/** Reads `@/…` modules under `root`. */
export const moduleReader = (root) => (specifier) => {
  if (!specifier.startsWith("@/")) return null;
  const file = `${specifier.slice(2)}.ts`;
  try {
    return { file, source: readFileSync(path.join(root, file), "utf8") };
  } catch {
    return null;
  }
};

/** Every app route file under `root`, checked: all writes and all problems. */
export function checkWriteRoutes(root) {
  const files = readdirSync(path.join(root, "app"), { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f) === "route.ts")
    .map((f) => `app/${f.split(path.sep).join("/")}`)
    .sort();
  const read = moduleReader(root);
  const all = files.map((file) => checkRouteFile(file, readFileSync(path.join(root, file), "utf8"), read));
  return { writes: all.flatMap((r) => r.writes), problems: all.flatMap((r) => r.problems) };
}

/** The eslint plugin: `faultline/write-routes` reports each write method of a route file not built with defineMutation. */
export const writeRoutesPlugin = {
  rules: {
    "write-routes": {
      meta: { type: "problem", docs: { description: "POST, PUT, PATCH and DELETE route handlers are built with defineMutation" }, schema: [] },
      create(context) {
        return {
          "Program:exit"() {
            const root = context.cwd;
            const file = path.relative(root, context.filename).split(path.sep).join("/");
            const { problems } = checkRouteFile(file, context.sourceCode.text, moduleReader(root));
            for (const p of problems) {
              context.report({ loc: { start: context.sourceCode.getLocFromIndex(p.start), end: context.sourceCode.getLocFromIndex(p.end) }, message: p.message });
            }
          },
        };
      },
    },
  },
};
