// The write-route check (scripts/lint/write-routes.mjs): every POST, PUT, PATCH and DELETE on disk is
// built with defineMutation or is one of two named exceptions; a route file written by hand fails
// the check and `npm run lint`. Also lists the writes any visitor may send (PublicWrite).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { checkRouteFile, checkWriteRoutes, moduleReader, type ModuleReader } from "@/scripts/lint/write-routes.mjs";

const root = process.cwd();

describe("the write routes on disk", () => {
  const { writes, problems } = checkWriteRoutes(root);

  it("are all built with defineMutation", () => {
    expect(problems).toEqual([]);
    expect(writes.filter((w) => w.kind === "mutation").map((w) => `${w.method} ${w.route} ${w.handler}`)).toEqual([
      "DELETE /api/v1/alerts/receivers/[id] server/routes/alert-receivers#alertReceiverDelete",
      "PATCH /api/v1/alerts/receivers/[id] server/routes/alert-receiver-edit#alertReceiverEdit",
      "POST /api/v1/alerts/receivers/[id]/test server/routes/alert-receiver-test#alertReceiverTest",
      "POST /api/v1/alerts/receivers server/routes/alert-receivers#alertReceiverCreate",
      "PATCH /api/v1/alerts/rules/[id] server/routes/alert-rules#alertRulePatch",
      "DELETE /api/v1/alerts/rules/[id] server/routes/alert-rules#alertRuleDelete",
      "POST /api/v1/alerts/rules server/routes/alert-rules#alertRuleCreate",
      "POST /api/v1/auth/invitations/[token] server/routes/invitations#invitationAcceptPost",
      "POST /api/v1/auth/setup server/routes/auth#setupPost",
      "POST /api/v1/auth/sign-in server/routes/auth#signInPost",
      "POST /api/v1/auth/sign-out-everywhere server/routes/auth#signOutEverywherePost",
      "POST /api/v1/auth/sign-out server/routes/auth#signOutPost",
      "POST /api/v1/classification/builtin server/routes/classification-rules#classificationBuiltinSwitch",
      "PUT /api/v1/classification/rules/[id] server/routes/classification-rules#classificationRuleUpdate",
      "DELETE /api/v1/classification/rules/[id] server/routes/classification-rules#classificationRuleDelete",
      "POST /api/v1/classification/rules/order server/routes/classification-rules#classificationRulesReorder",
      "POST /api/v1/classification/rules server/routes/classification-rules#classificationRuleCreate",
      "PUT /api/v1/column-choices/[table] server/routes/column-choices#columnChoicePut",
      "POST /api/v1/issues/[id]/notes server/routes/issues#issueNoteCreate",
      "PATCH /api/v1/issues/[id] server/routes/issues#issuePatch",
      "PATCH /api/v1/projects/[project]/experiments/[id] server/routes/experiments#experimentPatch",
      "POST /api/v1/projects/[project]/experiments server/routes/experiments#experimentCreate",
      "DELETE /api/v1/projects/[project]/invitations/[id] server/routes/invitations#invitationRevoke",
      "POST /api/v1/projects/[project]/invitations server/routes/invitations#invitationCreate",
      "DELETE /api/v1/projects/[project]/keys/[prefix] server/routes/project-keys#keyRevoke",
      "POST /api/v1/projects/[project]/keys server/routes/project-keys#keyCreate",
      "PATCH /api/v1/projects/[project]/members/[userId] server/routes/members#memberPatch",
      "DELETE /api/v1/projects/[project]/members/[userId] server/routes/members#memberDelete",
      "PATCH /api/v1/projects/[project] server/routes/project-admin#projectPatch",
      "PUT /api/v1/projects/[project]/trace-link server/routes/trace-links#traceLinkPut",
      "DELETE /api/v1/projects/[project]/trace-link server/routes/trace-links#traceLinkDelete",
      "POST /api/v1/projects server/routes/project-admin#projectCreate",
      "PATCH /api/v1/saved-views/[id] server/routes/saved-views#savedViewPatch",
      "DELETE /api/v1/saved-views/[id] server/routes/saved-views#savedViewDelete",
      "POST /api/v1/saved-views server/routes/saved-views#savedViewCreate",
      "PATCH /api/v1/slos/[id] server/routes/slos#sloPatch",
      "DELETE /api/v1/slos/[id] server/routes/slos#sloDelete",
      "POST /api/v1/slos server/routes/slos#sloCreate",
    ]);
  });

  it("make exactly the named exceptions: ingest (project keys, no session) and the reads by POST (the gate, the rule preview)", () => {
    expect(writes.filter((w) => w.kind !== "mutation").map((w) => `${w.method} ${w.route} ${w.kind}`)).toEqual([
      // Langfuse's OTLP path: the same receiver as /v1/traces.
      "POST /api/public/otel/v1/traces ingestRoute",
      "POST /api/v1/alerts/rules/preview readByPost",
      "POST /api/v1/gate readByPost",
      "POST /api/v1/ingest/adk/published-events ingestRoute",
      "POST /api/v1/ingest/adk/run-events ingestRoute",
      "POST /api/v1/ingest/adk/spans ingestRoute",
      "POST /api/v1/ingest ingestRoute",
      "POST /v1/traces ingestRoute",
    ]);
  });

  it("let anonymous visitors send only the named public writes", () => {
    const dir = path.join(root, "server/routes");
    const named = readdirSync(dir)
      .flatMap((f) => readFileSync(path.join(dir, f), "utf8").split(/^export const /m))
      .map((declaration) => [/^(\w+) = defineMutation\(/.exec(declaration)?.[1], /access: \{ anyone: "([\w-]+)" \}/.exec(declaration)?.[1]])
      .filter(([name, reason]) => name !== undefined && reason !== undefined)
      .map(([name, reason]) => `${name} ${reason}`)
      .sort();
    expect(named).toEqual(["invitationAcceptPost invitation-link", "setupPost setup-link", "signInPost sign-in", "signOutPost sign-out"]);
    // Every other write names a caller check: no `anyone` hides elsewhere.
    const anyone = readdirSync(dir).reduce((n, f) => n + (readFileSync(path.join(dir, f), "utf8").match(/anyone:/g)?.length ?? 0), 0);
    expect(anyone).toBe(4);
  });
});

// ---- fixtures written by hand: the check must refuse them ------------------------------------------

const HAND_WRITTEN = `import { route } from "../http/route";
import { defineMutation } from "../http/define-mutation";
export const handRolled = route(async (req: Request) => Response.json(await req.json()));
export const proper = defineMutation({ access: "signed-in", change: async () => ({ result: null, audit: { projectId: null, action: "auth.sign_out" } }) });
`;
const fixtures: ModuleReader = (specifier) => (specifier === "@/server/routes/fixture" ? { file: "server/routes/fixture.ts", source: HAND_WRITTEN } : null);
const check = (source: string) => checkRouteFile("app/api/v1/fixture/[id]/route.ts", source, fixtures);

describe("the check on route files written by hand", () => {
  it("refuses a handler built with route() by hand", () => {
    const { writes, problems } = check(`import { handRolled } from "@/server/routes/fixture";\nexport const POST = handRolled;\n`);
    expect(writes).toEqual([]);
    expect(problems.map((p) => p.message)).toEqual(["POST /api/v1/fixture/[id]: handRolled (server/routes/fixture.ts) is built with route, not with defineMutation"]);
  });

  it("refuses a handler written in the route file, one from elsewhere, and a destructured write", () => {
    const { problems } = check(
      [
        `import { helper } from "@/server/http/helper";`,
        `import { otherMethods } from "@/server/http/route";`,
        `export const PATCH = async (req: Request) => new Response(await req.text());`,
        `export const DELETE = helper;`,
        `export const { PUT } = makeHandlers();`,
        `export const { GET, OPTIONS } = otherMethods("PATCH");`,
      ].join("\n"),
    );
    expect(problems.map((p) => p.message)).toEqual([
      "PATCH /api/v1/fixture/[id]: export a handler defined with defineMutation in server/routes/ (`export const POST = myChange;`)",
      "DELETE /api/v1/fixture/[id]: export a handler defined with defineMutation in server/routes/ (`export const POST = myChange;`)",
      "PUT /api/v1/fixture/[id]: a write method must be one export built with defineMutation",
    ]);
  });

  it("accepts a defineMutation handler and the refusals of otherMethods", () => {
    const { writes, problems } = check(`import { proper } from "@/server/routes/fixture";\nexport const POST = proper;\nexport const { PUT, DELETE, PATCH } = otherMethods("POST");\n`);
    expect(problems).toEqual([]);
    expect(writes).toEqual([{ method: "POST", route: "/api/v1/fixture/[id]", handler: "server/routes/fixture#proper", kind: "mutation" }]);
  });

  it("is what `npm run lint` runs on app/**/route.ts", async () => {
    // A real module's read handler exported as a write: eslint's faultline/write-routes refuses it.
    const eslint = new ESLint({ cwd: root });
    const source = `import { gateGet } from "@/server/routes/gate";\n\nexport const POST = gateGet;\n`;
    const [result] = await eslint.lintText(source, { filePath: path.join(root, "app/api/v1/hand-written/route.ts") });
    expect(result!.messages.map((m) => [m.ruleId, m.line, m.message])).toEqual([
      ["faultline/write-routes", 3, "POST /api/v1/hand-written: gateGet (server/routes/gate.ts) is built with route, not with defineMutation"],
    ]);
    // And a server module may not rebuild the checks or write audit entries itself.
    const [server] = await eslint.lintText(`import { checkCsrf } from "../http/mutation-guard";\nimport { recordAudit } from "@/db/audit/record-audit";\nexport { checkCsrf, recordAudit };\n`, {
      filePath: path.join(root, "server/routes/hand-written.ts"),
    });
    expect(server!.messages.map((m) => [m.ruleId, m.line])).toEqual([
      ["no-restricted-imports", 1],
      ["no-restricted-imports", 2],
    ]);
  }, 60_000);

  it("reads modules under the root only by their @/ path", () => {
    expect(moduleReader(root)("@/server/routes/gate")?.file).toBe("server/routes/gate.ts");
    expect(moduleReader(root)("./gate")).toBeNull();
  });
});
