// Issues of unclassified failure groups on the real server (both engines with the api-pg project):
// OTLP failures without a code open one issue for their group, listed with its shape and latest
// message; a rule created through the API names the group, and once the re-classification job has
// run the issue is resolved with the naming note and, after the code's next failure, links its issue.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classificationProgressSchema, classificationRuleSchema } from "@/lib/contracts/classification";
import { issueDetailSchema, issuesSchema } from "@/lib/contracts/issues";
import { issueId } from "@/lib/triage/issue-batch";
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

/** Failed `book` calls, one per id, each telling that its booking is missing. */
async function sendMissing(ids: number[]) {
  const spans = ids.map((n) => ({
    traceId: "5b8efff798038103d269b633813fc60c", spanId: n.toString(16).padStart(16, "0"), name: "execute_tool book", kind: 1,
    startTimeUnixNano: ns(T + n * 1000), endTimeUnixNano: ns(T + n * 1000 + 200),
    attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "book"), str("gen_ai.tool.call.id", `call_${n}`), str("faultline.run_id", `run-${n % 2}`), str("error.type", "BookingMissingError")],
    status: { code: 2, message: `booking bk_${n}${n} not found` },
  }));
  const res = await fetch(`${server.url}/v1/traces`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ resourceSpans: [{ resource: { attributes: [str("service.name", "travel-agent"), str("service.version", "2.0.0")] }, scopeSpans: [{ scope: { name: "agent" }, spans }] }] }),
  });
  expect(res.status).toBe(200);
}

const get = async (path: string) => (await fetch(server.at(path))).json() as Promise<unknown>;

async function settled() {
  for (;;) {
    const p = classificationProgressSchema.parse(await get("/api/v1/classification/progress"));
    if (p.upToDate && p.appliedRevision === p.revision) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("issues of unclassified failure groups", () => {
  it("opens one per group, shows its shape and sample, and resolves it when a rule names it", async () => {
    await sendMissing([3, 4]);
    await sendMissing([5]);
    const list = issuesSchema.parse(await get("/api/v1/issues"));
    expect(list.issues).toHaveLength(1);
    const [issue] = list.issues;
    expect(issue).toMatchObject({
      tool: "book", code: `group:${issue!.group!.key}`, state: "open", failures: 3, runs: 2,
      group: { errorType: "BookingMissingError", httpStatus: null, shape: "booking <id> not found", sample: "booking bk_55 not found" },
    });
    expect(issue!.id).toBe(issueId(server.project, "book", issue!.code));

    const created = await fetch(`${server.url}/api/v1/classification/rules`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ project: server.project, name: "Booking missing", match: { errorType: "BookingMissingError" }, set: { code: "booking_missing", errorClass: "ToolFailure" } }),
    });
    expect(created.status).toBe(201);
    expect(classificationRuleSchema.parse(await created.json())).toMatchObject({ version: 1 });
    await settled();

    const named = issueDetailSchema.parse(await get(`/api/v1/issues/${issue!.id}`));
    expect(named.issue).toMatchObject({ state: "resolved", resolution: { mode: "now", release: null }, failures: 3 });
    expect(named.history.map((h) => [h.actor, h.kind, h.detail])).toEqual([
      ["ingest", "created", "first failed in 2.0.0"],
      ["classification", "state", "named as booking_missing by rule “Booking missing” v1"],
    ]);
    expect(named.namedAs).toEqual({ code: "booking_missing", issueId: null });

    await sendMissing([7]);
    const later = issueDetailSchema.parse(await get(`/api/v1/issues/${issue!.id}`));
    expect(later.namedAs).toEqual({ code: "booking_missing", issueId: issueId(server.project, "book", "booking_missing") });
    expect(later.issue).toMatchObject({ state: "resolved", failures: 3 });
  });
});
