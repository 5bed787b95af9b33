import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { createClassificationRule, updateClassificationRule } from "@/db/classify/rules";
import { ruleInputSchema } from "@/lib/contracts/classification";
import { issuesQuerySchema } from "@/lib/contracts/issues";
import { getIssueDetail, listIssues } from "@/db/issues/list-issues";
import { issueId } from "@/lib/triage/issue-batch";
import { reclassifyProject } from "@/server/jobs/reclassify-job";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { s, T0 } from "../otlp/fixtures";
import { errorType, sendOtlp, status, toolSpan } from "../classify/fixtures";

// Failures without a code open one issue per failure group (docs/issues.md), and a rule that names
// the group resolves it through the re-classification job.

let store: Store;
const HELD = { held: async () => true };
const settle = () => reclassifyProject(store, "default", HELD, { chunk: 3, now: () => T0 });
const seats = ruleInputSchema.parse({ name: "Seat taken", match: { errorType: "SeatTakenError" }, set: { code: "seat_taken", errorClass: "ToolFailure" } });

const seatFailures = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => toolSpan(from + k, "book", `seat ${from + k}A is taken`, [errorType("SeatTakenError"), s("faultline.run_id", `run${k % 2}`)]));
const weird = (n: number) => toolSpan(n, "book", `weird thing ${n}`, [errorType("WeirdError"), s("faultline.run_id", "run9")]);

const issueRows = () =>
  store.all<{ tool: string; code: string; state: string; failures: number; runs: number }>(
    "SELECT tool, code, state, failures, runs FROM issues WHERE project_id = 'default' ORDER BY tool, code",
  );
/** The group key of each tool's unnamed failures with the given error type, as ingest stored it. */
const groupOf = async (errorTypeName: string) =>
  (await store.get<{ k: string }>("SELECT DISTINCT group_key AS k FROM failure_facts WHERE error_type = ? AND group_key IS NOT NULL", [errorTypeName]))!.k;
const events = (id: string) => store.all("SELECT kind, detail, actor_label AS actor FROM issue_events WHERE issue_id = ? ORDER BY id", [id]);

describe.each(DIALECTS)("issues of unclassified failure groups (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("opens one issue per group, counted like a code's, beside the coded issues", async () => {
    await sendOtlp(store, [...seatFailures(1, 3), weird(10), toolSpan(11, "search", "slow down", [status(429)]), toolSpan(12, "book", null)]);
    await sendOtlp(store, [...seatFailures(4, 2), weird(13)]);
    const seat = await groupOf("SeatTakenError");
    const odd = await groupOf("WeirdError");
    expect(seat).toMatch(/^[0-9a-f]{16}$/);
    expect(await issueRows()).toEqual(
      [
        { tool: "book", code: `group:${seat}`, state: "open", failures: 5, runs: 2 },
        { tool: "book", code: `group:${odd}`, state: "open", failures: 2, runs: 1 },
        { tool: "search", code: "rate_limited", state: "open", failures: 1, runs: 1 },
      ].sort((a, b) => (a.tool + a.code < b.tool + b.code ? -1 : 1)),
    );
    const id = issueId("default", "book", `group:${seat}`);
    expect(await events(id)).toEqual([{ kind: "created", detail: "first failed in 2026.11.3", actor: "ingest" }]);
    expect(await store.all("SELECT count(*) AS n FROM issues WHERE code = 'failed'")).toEqual([{ n: 0 }]);
  });

  it("a rule naming the group resolves its issue with a note, audited as a system change; other groups stay open", async () => {
    await sendOtlp(store, [...seatFailures(1, 4), weird(10)]);
    const seat = await groupOf("SeatTakenError");
    const odd = await groupOf("WeirdError");
    const seatIssue = issueId("default", "book", `group:${seat}`);
    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", seats, "test", T0));
    const before = Date.now();
    await settle();
    expect(await store.get("SELECT state, resolve_mode AS mode, failures, runs FROM issues WHERE id = ?", [seatIssue])).toEqual({ state: "resolved", mode: "now", failures: 4, runs: 2 });
    const resolvedAt = Number((await store.get<{ at: number }>("SELECT resolved_at AS at FROM issues WHERE id = ?", [seatIssue]))!.at);
    expect(resolvedAt).toBeGreaterThanOrEqual(before);
    expect(await events(seatIssue)).toEqual([
      { kind: "created", detail: "first failed in 2026.11.3", actor: "ingest" },
      { kind: "state", detail: "named as seat_taken by rule “Seat taken” v1", actor: "classification" },
    ]);
    expect(await store.all("SELECT actor_label AS actor, action, target, detail FROM audit_log WHERE action = 'issue.state_changed'")).toEqual([{
      actor: "system", action: "issue.state_changed", target: `book group:${seat}`,
      detail: JSON.stringify({ issueId: seatIssue, from: "open", to: "resolved", change: "named as seat_taken by rule “Seat taken” v1" }),
    }]);
    expect(await store.get("SELECT state FROM issues WHERE id = ?", [issueId("default", "book", `group:${odd}`)])).toEqual({ state: "open" });

    // A later version of the rule re-codes the calls again: the issue is already resolved, nothing more is noted.
    await store.transaction((tx) => updateClassificationRule(tx, "default", "r1", { ...seats, set: { ...seats.set, code: "seat_gone" } }, "test", T0));
    await settle();
    expect(await events(seatIssue)).toHaveLength(2);
    // New failures file under the code now, not under the group.
    await sendOtlp(store, seatFailures(20, 2));
    expect(await store.get("SELECT state, failures FROM issues WHERE id = ?", [seatIssue])).toEqual({ state: "resolved", failures: 4 });
    expect(await store.get("SELECT state, failures FROM issues WHERE id = ?", [issueId("default", "book", "seat_gone")])).toEqual({ state: "open", failures: 2 });
  });

  it("the list and the detail show the group's shape, sample and, once named, the code's issue", async () => {
    await sendOtlp(store, [...seatFailures(1, 2), toolSpan(5, "book", "seat 9F is taken", [errorType("SeatTakenError"), status(409)])]);
    const seat = await groupOf("SeatTakenError");
    const conflict = (await store.get<{ k: string }>("SELECT group_key AS k FROM failure_facts WHERE http_status = 409"))!.k;
    const id = issueId("default", "book", `group:${seat}`);
    const answer = await listIssues(store, issuesQuerySchema.parse({ project: "default" }), T0);
    expect(answer.issues.map((i) => [i.code, i.group])).toEqual(
      [
        [`group:${seat}`, { key: seat, errorType: "SeatTakenError", httpStatus: null, shape: "seat <id> is taken", sample: "seat 2A is taken" }],
        [`group:${conflict}`, { key: conflict, errorType: "SeatTakenError", httpStatus: 409, shape: "seat <id> is taken", sample: "seat 9F is taken" }],
      ],
    );
    // A user's note that reads like the job's is not a naming.
    await store.run("INSERT INTO issue_events (project_id, issue_id, at, actor_user_id, actor_label, kind, detail) VALUES ('default', ?, ?, 'u1', 'Ana', 'note', ?)", [id, T0, "named as fake by rule “x” v1"]);
    expect((await getIssueDetail(store, "default", id, T0))!.namedAs).toBeNull();

    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", seats, "test", T0));
    await settle();
    // Every call of both groups is named now: the group keeps its key, nothing is left to sample.
    const named = (await getIssueDetail(store, "default", id, T0))!;
    expect(named.issue.group).toEqual({ key: seat, errorType: null, httpStatus: null, shape: null, sample: null });
    expect(named.namedAs).toEqual({ code: "seat_taken", issueId: null });
    await sendOtlp(store, seatFailures(20, 1));
    expect((await getIssueDetail(store, "default", id, T0))!.namedAs).toEqual({ code: "seat_taken", issueId: issueId("default", "book", "seat_taken") });
    // A code's issue has no group and no naming.
    expect((await getIssueDetail(store, "default", issueId("default", "book", "seat_taken"), T0))!).toMatchObject({ issue: { group: null }, namedAs: null });
  });
});
