// Where a stored call's code came from, on the real server: the run timeline marks each attempt coded
// by a rule (project rule and version, or the pack's rule), a final error without a code goes through
// the rules with its call, the Conformance page counts failures by code source, and a code's history
// lists the rule edits that drift does not count as the tool's doing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classificationProgressSchema, classificationRuleSchema } from "@/lib/contracts/classification";
import { conformanceSchema } from "@/lib/contracts/conformance";
import { codeReleaseHistorySchema } from "@/lib/contracts/drift";
import { runTimelineSchema } from "@/lib/contracts/runs";
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
type Attr = { key: string; value: unknown };

const toolSpan = (n: number, tool: string, message: string | null, extra: Attr[]) => ({
  traceId: "6b8efff798038103d269b633813fc60c", spanId: n.toString(16).padStart(16, "0"), name: `execute_tool ${tool}`, kind: 1,
  startTimeUnixNano: ns(T + n * 1000), endTimeUnixNano: ns(T + n * 1000 + 200),
  attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", tool), str("gen_ai.tool.call.id", `call_${n}`), str("faultline.run_id", "run-src"), ...extra],
  ...(message === null ? {} : { status: { code: 2, message } }),
});
const errorSpan = (n: number, tool: string, told: string) => ({
  traceId: "6b8efff798038103d269b633813fc60c", spanId: (0x100 + n).toString(16).padStart(16, "0"), name: `faultline.tool_error ${tool}`, kind: 1,
  startTimeUnixNano: ns(T + n * 1000 + 500), endTimeUnixNano: ns(T + n * 1000 + 500),
  attributes: [str("faultline.run_id", "run-src"), str("faultline.call_id", `call_${n}`), str("faultline.tool", tool), str("faultline.decision", "surfaced"), int("faultline.attempts", 1), str("faultline.told", told)],
});

const get = async (path: string) => (await fetch(server.at(path))).json() as Promise<unknown>;
const send = (method: string, path: string, body: unknown) => fetch(`${server.url}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function settled() {
  for (;;) {
    const p = classificationProgressSchema.parse(await get("/api/v1/classification/progress"));
    if (p.upToDate && p.appliedRevision === p.revision) return p;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("code source", () => {
  it("marks codes from the emitter, a project rule at its version and the pack, for spans and final errors", async () => {
    const res = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
      body: JSON.stringify({
        resourceSpans: [{
          resource: { attributes: [str("service.name", "seat-agent"), str("service.version", "3.1.0")] },
          scopeSpans: [{ scope: { name: "agent" }, spans: [
            toolSpan(1, "search", "upstream refused", [int("http.response.status_code", 429)]),
            toolSpan(2, "book", "seat 10A is taken", [str("error.type", "SeatTakenError")]),
            errorSpan(2, "book", "error: seat 10A is taken"),
            toolSpan(3, "book", "seat 14C is taken", [str("error.type", "SeatTakenError")]),
            toolSpan(4, "book", "no fare", [str("faultline.code", "fare_missing")]),
            toolSpan(5, "book", null, []),
          ] }],
        }],
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});

    const created = await send("POST", "/api/v1/classification/rules", {
      project: server.project, name: "Seat taken", match: { errorType: "SeatTakenError" }, set: { code: "seat_taken", errorClass: "ToolRefusal", retryable: false },
    });
    expect(created.status).toBe(201);
    const rule = classificationRuleSchema.parse(await created.json());
    await settled();
    const edited = await send("PUT", `/api/v1/classification/rules/${rule.id}`, {
      project: server.project, name: "Seat taken", match: { errorType: "SeatTakenError" }, set: { code: "seat_taken", errorClass: "ToolRefusal", retryable: true },
    });
    const v2 = classificationRuleSchema.parse(await edited.json());
    expect(v2.version).toBe(2);
    // Four failed attempts and one final error examined; the two seat attempts and the seat error changed.
    expect(await settled()).toMatchObject({ revision: 2, examined: 5, changed: 3, remaining: 0 });

    const timeline = runTimelineSchema.parse(await get("/api/v1/runs/run-src"));
    const seatRule = { kind: "rule", ruleId: rule.id, version: 2, name: "Seat taken" };
    expect(timeline.codedBy).toEqual({ "0000000000000001": { kind: "builtin", ruleId: "builtin.http_429", version: 1 }, "0000000000000002": seatRule, "0000000000000003": seatRule });
    const call2 = timeline.calls.find((c) => c.callId === "call_2")!;
    expect(call2.error).toMatchObject({ code: "seat_taken", errorClass: "ToolRefusal", retryable: true, told: "error: seat 10A is taken" });

    const conformance = conformanceSchema.parse(await get("/api/v1/conformance"));
    expect(conformance.codeSources).toEqual([{ source: "otlp", service: "seat-agent", failures: 4, emitter: 1, rules: 2, builtin: 1, unclassified: 0 }]);
    // The per-format table still counts what the emitter sent: three of four failures came without a code.
    expect(conformance.sources.find((s) => s.source === "otlp")?.code).toEqual({ missing: 3, of: 4, share: 0.75 });

    const history = codeReleaseHistorySchema.parse(await get("/api/v1/drift/codes/seat_taken/history"));
    expect(history.ruleEdits.map((e) => e.text)).toEqual([
      `rule “Seat taken” created as v1 at ${new Date(rule.updatedAt).toISOString()}`,
      `rule “Seat taken” edited to v2 at ${new Date(v2.updatedAt).toISOString()}`,
    ]);
  });
});
