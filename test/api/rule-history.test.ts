// A reorder of the rules and a switch of the built-in pack, on the real server: each is in the
// history of the codes whose calls it moved (and only theirs), on a drift finding of such a code,
// and neither reads as the tool changing: switching the pack off after drift folded its codes is no
// "removed" finding, and a reorder that hands calls to another rule's code is no "added" one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogSchema } from "@/lib/contracts/audit-log";
import { classificationProgressSchema, classificationRuleSchema } from "@/lib/contracts/classification";
import { codeReleaseHistorySchema, driftFindingsResponseSchema } from "@/lib/contracts/drift";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const get = async (path: string) => (await fetch(server.at(path))).json() as Promise<unknown>;
const send = (method: string, path: string, body: unknown) => fetch(`${server.url}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const iso = (ms: number) => new Date(ms).toISOString();

async function settled() {
  for (;;) {
    const p = classificationProgressSchema.parse(await get("/api/v1/classification/progress"));
    if (p.upToDate && p.appliedRevision === p.revision) return p;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * One release of `quote`, none of its failures with a code: 30 seat quotas and 30 project quotas
 * (retryable as given; both rules match a seat quota), 30 rate limits (the pack's), 10 successes.
 */
async function ingest(version: string, from: number, projectQuotaRetryable: boolean) {
  const records = Array.from({ length: 100 }, (_, n) => {
    const kind = Math.floor(n / 30);
    const message = [`quota exceeded for seat ${n}A`, `quota exceeded for project p${n}`, "rate limit exceeded"][kind];
    return {
      type: "tool_call_span", id: `${version}-${n}`, run_id: `run-${version}-${n % 10}`, call_id: `${version}-c${n}`, tool: "quote", tool_version: version, attempt: 1,
      started_at: from + n, ended_at: from + n + 1, outcome: message === undefined ? "ok" : "failed",
      ...(message === undefined ? {} : { message, retryable: kind === 1 ? projectQuotaRetryable : true }),
    };
  });
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ resource: { service: "quoter" }, records }),
  });
  expect(await res.json()).toMatchObject({ accepted: 100 });
}

const findings = async () => {
  await server.driftFolded();
  return driftFindingsResponseSchema.parse(await get("/api/v1/drift")).findings;
};
const historyTexts = async (code: string) => codeReleaseHistorySchema.parse(await get(`/api/v1/drift/codes/${code}/history`)).ruleEdits.map((e) => e.text);
const auditAt = async (action: string) => {
  const log = auditLogSchema.parse(await get(`/api/v1/projects/${server.project}/audit?action=${action}`));
  expect(log.entries).toHaveLength(1);
  return log.entries[0]!.at;
};

describe("reorders and pack switches in a code's history", () => {
  it("shows them on the codes they moved, with exact texts, and drift reports only the emitter's change", async () => {
    const rule = async (name: string, message: string, code: string) => {
      const res = await send("POST", "/api/v1/classification/rules", { project: server.project, name, match: { message }, set: { code } });
      expect(res.status).toBe(201);
      return classificationRuleSchema.parse(await res.json());
    };
    const quota = await rule("Quota", "quota exceeded*", "quota_exceeded");
    const seat = await rule("Seat", "*seat*", "seat_quota");
    // 1.0.0 is first seen after the rules were created: only a later change can explain a code coming or going.
    await ingest("1.0.0", seat.updatedAt + 1, true);
    expect(await findings()).toEqual([]);

    const reordered = await send("POST", "/api/v1/classification/rules/order", { project: server.project, ids: [seat.id, quota.id] });
    expect(reordered.status).toBe(200);
    // The 30 seat quotas move from quota_exceeded to seat_quota.
    expect(await settled()).toMatchObject({ revision: 3, changed: 30, remaining: 0 });
    const switched = await send("POST", "/api/v1/classification/builtin", { project: server.project, enabled: false });
    expect(await switched.json()).toEqual({ project: server.project, builtinEnabled: false });
    // The 30 rate limits lose the pack's code.
    expect(await settled()).toMatchObject({ revision: 4, changed: 30, remaining: 0 });
    // Switching it off again changes nothing: no new revision, no second entry.
    expect((await send("POST", "/api/v1/classification/builtin", { project: server.project, enabled: false })).status).toBe(200);
    const [reorderedAt, switchedAt] = [await auditAt("classification.rules_reordered"), await auditAt("classification.builtin_switched")];

    expect(await historyTexts("quota_exceeded")).toEqual([`rule “Quota” created as v1 at ${iso(quota.updatedAt)}`, `rules reordered at ${iso(reorderedAt)}`]);
    expect(await historyTexts("seat_quota")).toEqual([`rule “Seat” created as v1 at ${iso(seat.updatedAt)}`, `rules reordered at ${iso(reorderedAt)}`]);
    expect(await historyTexts("rate_limited")).toEqual([`built-in pack switched off at ${iso(switchedAt)}`]);

    // 1.1.0: seat quotas come as seat_quota, rate limits without a code, and the emitter now calls project quotas permanent.
    await ingest("1.1.0", Date.now(), false);
    const found = await findings();
    expect(found.map((f) => [f.kind, f.code, f.renamedTo, f.fromRelease, f.toRelease, f.changes])).toEqual([
      ["repurposed", "quota_exceeded", null, "1.0.0", "1.1.0", ["retryable"]],
    ]);
    expect(found[0]!.ruleNotes).toEqual([`rule “Quota” created as v1 at ${iso(quota.updatedAt)}`, `rules reordered at ${iso(reorderedAt)}`]);
  });
});
