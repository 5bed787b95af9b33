// SLOs on the real server (both engines: the api and api-pg projects): definitions made, edited and
// deleted through the API with their burn-rate rule, refusals of bad definitions, and the exact
// counts of one synthetic history under each switch: declines and failures the model recovered from
// left out of "bad" by default, counted when the SLO says so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertRulePreviewSchema, alertRulesSchema } from "@/lib/contracts/alerts";
import { sloDetailSchema, sloSchema, slosSchema, type Slo, type SloStatus } from "@/lib/contracts/slos";
import { allRecords } from "../helpers/told-runs";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
// Two hours ago: inside the 6 h burn window and the 28-day budget window, outside 1 h, 30 and 5 min.
const B = Math.floor(Date.now() / 60_000) * 60_000 - 2 * 3_600_000;

const json = (method: string, body: unknown): RequestInit => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

const span = (id: string, callId: string, at: number, outcome: string, extra: Record<string, unknown> = {}) => ({
  type: "tool_call_span", id, run_id: `run-${id}`, call_id: callId, tool: "lookup", attempt: 1, started_at: at, ended_at: at + 20, outcome, release: "3.1.0", ...extra,
});

/** 20 calls of `lookup`: 5 ok, 3 given up, 2 recovered (+2 ok after), 1 replaced, 4 declined, 1 retried then ok, 1 retried then failed, 1 cancelled. */
function history(): unknown[] {
  const told = (runId: string, next: "gave_up" | "recovered" | "replaced", i: number) =>
    allRecords({ runId, release: "3.1.0", tool: "lookup", code: "lookup_down", told: "lookup_down: try later", next, at: B + i * 2000 });
  return [
    ...[0, 1, 2, 3, 4].map((i) => span(`ok${i}`, `ok${i}`, B + i * 1000, "ok")),
    ...told("gave-1", "gave_up", 1),
    ...told("gave-2", "gave_up", 2),
    ...told("gave-3", "gave_up", 3),
    ...told("rec-1", "recovered", 4),
    ...told("rec-2", "recovered", 5),
    ...told("rep-1", "replaced", 6),
    ...[0, 1, 2, 3].map((i) => span(`dec${i}`, `dec${i}`, B + 20_000 + i * 1000, "declined", { code: "no_seats", error_class: "ToolRefusal", decision: "delivered" })),
    span("retry-ok-1", "retry-ok", B + 30_000, "failed", { code: "upstream_timeout", decision: "retried", run_id: "run-retry-ok" }),
    span("retry-ok-2", "retry-ok", B + 31_000, "ok", { attempt: 2, run_id: "run-retry-ok" }),
    span("retry-bad-1", "retry-bad", B + 32_000, "failed", { code: "upstream_timeout", decision: "retried", run_id: "run-retry-bad" }),
    span("retry-bad-2", "retry-bad", B + 33_000, "failed", { attempt: 2, code: "upstream_timeout", decision: "exhausted", run_id: "run-retry-bad" }),
    span("cancel", "cancel", B + 34_000, "cancelled"),
  ];
}

async function createSlo(body: Record<string, unknown>): Promise<Slo> {
  const res = await fetch(`${server.url}/api/v1/slos`, json("POST", { project: server.project, objective: 0.75, ...body }));
  expect(res.status).toBe(201);
  return sloSchema.parse(await res.json());
}

async function statuses(): Promise<Map<string, SloStatus>> {
  const res = await fetch(server.at("/api/v1/slos"));
  expect(res.status).toBe(200);
  return new Map(slosSchema.parse(await res.json()).slos.map((s) => [s.slo.name, s]));
}

beforeAll(async () => {
  server = await openProject();
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ resource: { service: "slo-agent" }, records: history() }),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

describe("SLOs", () => {
  it("counts the same 20 calls as 4, 8, 7 or 11 bad as declines and recovered failures are left out or counted", async () => {
    const base = await createSlo({ name: "default", tools: ["look*"] });
    expect([base.windowDays, base.countDeclines, base.countRecovered]).toEqual([28, false, false]);
    await createSlo({ name: "declines", tools: ["lookup"], countDeclines: true });
    await createSlo({ name: "recovered", tools: ["lookup"], countRecovered: true });
    await createSlo({ name: "both", tools: ["lookup", "nothing_*"], countDeclines: true, countRecovered: true });
    await expect.poll(async () => (await statuses()).get("default")?.window.calls).toBe(20);
    const all = await statuses();
    const view = (name: string) => {
      const s = all.get(name)!;
      return { window: s.window, sli: s.sli, budgetRemaining: s.budgetRemaining, burnRates: s.burnRates, state: s.state };
    };
    const noShort = { h1: null, m30: null, m5: null };
    expect(view("default")).toEqual({
      window: { calls: 20, bad: 4, declinesExcluded: 4, recoveredExcluded: 3 },
      sli: 0.8,
      // 5 bad calls allowed (25 % of 20), 4 spent.
      budgetRemaining: 0.2,
      burnRates: { h6: 0.8, ...noShort },
      state: "ok",
    });
    expect(view("declines")).toEqual({ window: { calls: 20, bad: 8, declinesExcluded: 0, recoveredExcluded: 3 }, sli: 0.6, budgetRemaining: -0.6, burnRates: { h6: 1.6, ...noShort }, state: "exhausted" });
    expect(view("recovered")).toEqual({ window: { calls: 20, bad: 7, declinesExcluded: 4, recoveredExcluded: 0 }, sli: 0.65, budgetRemaining: -0.4, burnRates: { h6: 1.4, ...noShort }, state: "exhausted" });
    expect(view("both")).toEqual({ window: { calls: 20, bad: 11, declinesExcluded: 0, recoveredExcluded: 0 }, sli: 0.45, budgetRemaining: -1.2, burnRates: { h6: 2.2, ...noShort }, state: "exhausted" });

    const res = await fetch(server.at(`/api/v1/slos/detail?id=${base.id}`));
    expect(res.status).toBe(200);
    const detail = sloDetailSchema.parse(await res.json());
    expect(detail.failures).toEqual({
      codes: [{ code: "lookup_down", count: 3 }, { code: "upstream_timeout", count: 1 }],
      tools: [{ tool: "lookup", count: 4 }],
      runs: [
        { runId: "run-retry-bad", count: 1, lastAt: B + 33_000 },
        { runId: "gave-3", count: 1, lastAt: B + 6000 + 10 },
        { runId: "gave-2", count: 1, lastAt: B + 4000 + 10 },
        { runId: "gave-1", count: 1, lastAt: B + 2000 + 10 },
      ],
    });
    const hour = Math.floor(B / 3_600_000) * 3_600_000;
    expect(detail.budget.filter((p) => p.calls > 0)).toEqual([{ at: hour, calls: 20, bad: 4, budgetRemaining: 0.2 }]);
    expect(detail.budget.at(-1)!.budgetRemaining).toBe(0.2);
    expect(detail.budget.length).toBe(Math.ceil((detail.at - Math.floor((detail.at - 28 * 86_400_000) / 3_600_000) * 3_600_000) / 3_600_000));
  });

  it("makes a burn-rate rule with each SLO, edits it, previews its rule, and deletes both", async () => {
    const slo = await createSlo({ name: "to edit", tools: ["lookup"], objective: 0.995 });
    const rules = async () => alertRulesSchema.parse(await (await fetch(server.at("/api/v1/alerts/rules"))).json()).rules.filter((r) => r.params.kind === "slo_burn" && r.params.slo === slo.id);
    expect((await rules()).map((r) => [r.name, r.params, r.receiverId])).toEqual([["SLO to edit: burn rate", { kind: "slo_burn", slo: slo.id }, null]]);

    let res = await fetch(`${server.url}/api/v1/slos/${slo.id}`, json("PATCH", { objective: 0.9, windowDays: 7, countDeclines: true }));
    expect(res.status).toBe(200);
    expect(sloSchema.parse(await res.json())).toMatchObject({ name: "to edit", tools: ["lookup"], objective: 0.9, windowDays: 7, countDeclines: true, countRecovered: false });

    res = await fetch(`${server.url}/api/v1/alerts/rules/preview`, json("POST", { project: server.project, params: { kind: "slo_burn", slo: slo.id } }));
    expect(res.status).toBe(200);
    // 8 bad of 20 at 90 %: a 4× burn over 6 h, under the ticket's 6×; nothing fired in the week.
    expect(alertRulePreviewSchema.parse(await res.json())).toMatchObject({ notifications: 0, episodes: [] });

    res = await fetch(`${server.url}/api/v1/slos/${slo.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await rules()).toEqual([]);
    expect((await fetch(server.at(`/api/v1/slos/detail?id=${slo.id}`))).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/slos/${slo.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses a bad definition with the issues named, and an SLO of another project", async () => {
    const res = await fetch(`${server.url}/api/v1/slos`, json("POST", { project: server.project, name: "bad", tools: [], objective: 1.2, windowDays: 0 }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; issues: { path: string }[] } };
    expect(body.error.code).toBe("bad_request");
    expect(body.error.issues.map((i) => i.path).sort()).toEqual(["objective", "tools", "windowDays"]);
    const own = await createSlo({ name: "mine", tools: ["lookup"] });
    expect((await fetch(`${server.url}/api/v1/slos/detail?project=default&id=${own.id}`)).status).toBe(404);
  });
});
