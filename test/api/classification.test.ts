// Classification on the real server: OTLP failures coded by the built-in pack, the rest grouped; a
// rule previewed with exact counts, created through the API, applied to history by the background
// job with visible progress; the codes, groups and audit log after it; bad rules refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classificationPreviewSchema, classificationProgressSchema, classificationRuleSchema, failureGroupsSchema } from "@/lib/contracts/classification";
import { codesSchema } from "@/lib/contracts/codes";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const T = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
const ns = (ms: number) => `${ms}000000`;
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const int = (key: string, v: number) => ({ key, value: { intValue: v } });

/** One tool span per spec: [id, tool, run, status message or null for ok, extra attributes]. */
function traces(specs: [number, string, string, string | null, { key: string; value: unknown }[]][]) {
  const spans = specs.map(([n, tool, run, message, extra]) => ({
    traceId: "5b8efff798038103d269b633813fc60c", spanId: n.toString(16).padStart(16, "0"), name: `execute_tool ${tool}`, kind: 1,
    startTimeUnixNano: ns(T + n * 1000), endTimeUnixNano: ns(T + n * 1000 + 200),
    attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", tool), str("gen_ai.tool.call.id", `call_${n}`), str("faultline.run_id", run), ...extra],
    ...(message === null ? {} : { status: { code: 2, message } }),
  }));
  return { resourceSpans: [{ resource: { attributes: [str("service.name", "travel-agent"), str("service.version", "2.0.0")] }, scopeSpans: [{ scope: { name: "agent" }, spans }] }] };
}

const get = async (path: string) => {
  const res = await fetch(server.at(path));
  return { status: res.status, body: (await res.json()) as unknown };
};
const send = (method: string, path: string, body: unknown) => fetch(`${server.url}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function settled() {
  for (;;) {
    const p = classificationProgressSchema.parse((await get("/api/v1/classification/progress")).body);
    if (p.upToDate && p.appliedRevision === p.revision) return p;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("classification through the API", () => {
  it("codes with the pack, groups the rest, previews, saves a rule and re-classifies history", async () => {
    const missing = (n: number, run: string) => [n, "book", run, `booking bk_${n}${n} not found`, [str("error.type", "BookingMissingError")]] as [number, string, string, string, { key: string; value: unknown }[]];
    const res = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
      body: JSON.stringify(
        traces([
          [1, "search", "run-a", "upstream refused", [int("http.response.status_code", 429), str("http.response.header.retry-after", "3")]],
          [2, "search", "run-b", "upstream refused", [int("http.response.status_code", 429)]],
          missing(3, "run-a"), missing(4, "run-a"), missing(5, "run-b"),
          [6, "search", "run-b", null, []],
        ]),
      ),
    });
    expect(res.status).toBe(200);

    const codes = codesSchema.parse((await get("/api/v1/codes?range=24h")).body).codes;
    expect(codes.map((c) => [c.code, c.attempts, c.errorClasses, c.retryableShare])).toEqual([["rate_limited", 2, ["ToolFailure"], 1]]);

    const groups = failureGroupsSchema.parse((await get("/api/v1/classification/groups?range=24h")).body).groups;
    expect(groups.map((g) => ({ ...g, samples: g.samples.map((s) => [s.message, s.runId]) }))).toEqual([
      {
        key: expect.stringMatching(/^[0-9a-f]{16}$/), tool: "book", errorType: "BookingMissingError", httpStatus: null, shape: "booking <id> not found",
        calls: 3, runs: 2, firstSeen: T + 3000, lastSeen: T + 5000,
        samples: [["booking bk_55 not found", "run-b"], ["booking bk_44 not found", "run-a"], ["booking bk_33 not found", "run-a"]],
      },
    ]);

    const preview = async (q: string) => classificationPreviewSchema.parse((await get(`/api/v1/classification/preview?range=24h&${q}`)).body);
    expect(await preview("errorType=BookingMissingError&message=booking%20%3Cid%3E%20not%20found&code=booking_missing&errorClass=ToolRefusal&retryable=false")).toMatchObject({
      matched: 3, unclassifiedNow: 3, changesCoded: 0, examined: 5,
    });
    expect(await preview("httpStatus=429&code=quota")).toMatchObject({ matched: 2, unclassifiedNow: 0, changesCoded: 2, examined: 5 });

    const created = await send("POST", "/api/v1/classification/rules", {
      project: server.project, name: "Booking missing",
      match: { errorType: "BookingMissingError", message: "booking <id> not found" }, set: { code: "booking_missing", errorClass: "ToolRefusal", retryable: false },
    });
    expect(created.status).toBe(201);
    const rule = classificationRuleSchema.parse(await created.json());
    expect(rule).toMatchObject({ version: 1, position: 0, enabled: true, overrideEmitter: false });

    expect(await settled()).toMatchObject({ revision: 1, appliedRevision: 1, examined: 5, changed: 3, total: 5, remaining: 0, upToDate: true });
    expect(failureGroupsSchema.parse((await get("/api/v1/classification/groups?range=24h")).body).groups).toEqual([]);
    const after = codesSchema.parse((await get("/api/v1/codes?range=24h&sort=code&dir=asc")).body).codes;
    expect(after.map((c) => [c.code, c.attempts, c.errorClasses, c.outcomes])).toEqual([
      ["booking_missing", 3, ["ToolRefusal"], [{ outcome: "declined", attempts: 3 }]],
      ["rate_limited", 2, ["ToolFailure"], [{ outcome: "failed", attempts: 2 }]],
    ]);

    const edited = await send("PUT", `/api/v1/classification/rules/${rule.id}`, { project: server.project, name: "Booking missing", match: { errorType: "BookingMissingError" }, set: { code: "booking_gone" } });
    expect(edited.status).toBe(200);
    expect(classificationRuleSchema.parse(await edited.json())).toMatchObject({ version: 2 });
    expect(await settled()).toMatchObject({ revision: 2, changed: 3 });
    const stored = await server.store.all("SELECT DISTINCT s.code, f.rule_id AS \"ruleId\", f.rule_version AS \"ruleVersion\" FROM tool_call_spans s JOIN failure_facts f ON f.span_id = s.span_id AND f.project_id = s.project_id WHERE s.project_id = ? AND s.tool = 'book'", [server.project]);
    expect(stored).toEqual([{ code: "booking_gone", ruleId: rule.id, ruleVersion: 2 }]);

    const audit = (await get(`/api/v1/projects/${server.project}/audit`)).body as { entries: { action: string }[] };
    expect(audit.entries.map((e) => e.action).filter((a) => a.startsWith("classification."))).toEqual(["classification.rule_updated", "classification.rule_created"]);
  });

  it("refuses a rule without a condition with the issues listed, and an unknown rule with 404", async () => {
    const bad = await send("POST", "/api/v1/classification/rules", { project: server.project, name: "everything", match: {}, set: { code: "x" } });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; issues: { path: string; message: string }[] } };
    expect(body.error.code).toBe("bad_request");
    expect(body.error.issues).toContainEqual({ path: "match", message: "a rule needs at least one condition" });
    const preview = await get("/api/v1/classification/preview?code=x");
    expect(preview.status).toBe(400);
    expect((await send("PUT", "/api/v1/classification/rules/r_000000000000", { project: server.project, name: "n", match: { tool: "a" }, set: { code: "a" } })).status).toBe(404);
  });
});
