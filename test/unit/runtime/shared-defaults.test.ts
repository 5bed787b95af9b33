import { describe, expect, it } from "vitest";
import { toolBudgets } from "../../../lib/charts/timeline-summary";
import type { TimelineRow } from "../../../lib/charts/timeline-types";
import { DEFAULT_MAX_TOOL_ATTEMPTS as SHARED } from "../../../lib/contracts/runtime-defaults";
import { DEFAULT_MAX_TOOL_ATTEMPTS } from "../../../lib/runtime";
import { harness, scripted } from "./helpers";

describe("defaults the runtime applies and the dashboard assumes", () => {
  it("the per-run retry budget the runtime enforces without a setting is the one the timeline assumes", async () => {
    // A tool that always fails retryably, called until the run's budget stops its retries.
    const flaky = scripted("search", [new Error("upstream down")], { idempotent: true });
    const { runner } = harness([flaky], { retry: { maxAttempts: 1000, baseDelayMs: 1 } });
    const run = runner.startRun();
    const result = await run.call({ tool: "search", callId: "c1" });
    const record = run.end();
    expect(result.status === "error" && result.decision).toBe("budget_capped");
    const enforced = run.retriesUsed("search");
    expect(enforced).toBe(SHARED);
    expect(DEFAULT_MAX_TOOL_ATTEMPTS).toBe(SHARED);
    // The run record states it, and a record without it is read with the same budget.
    expect(record.max_tool_attempts).toBe(enforced);
    const row = { kind: "tool", tool: "search", retriesUsed: enforced } as unknown as TimelineRow;
    expect(toolBudgets([row], null)[0]).toMatchObject({ budget: enforced, assumed: true });
  });
});
