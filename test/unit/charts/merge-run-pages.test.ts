import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { ensureDefaultProject } from "@/db/keys";
import { getRunTimeline } from "@/db/queries/get-run-timeline";
import { appendRunPage } from "@/lib/charts/merge-run-pages";
import { A, type RunTimeline } from "@/lib/contracts/runs";
import { H, everyDecisionRun } from "../../api/runs-fixture";
import { DIALECTS, openTestStore } from "../../helpers/stores";

const RUN = "run-every-decision";

/** The timeline with its string indexes resolved and times made absolute: what two dictionaries and clocks must agree on. */
function decoded(t: RunTimeline) {
  const text = (i: number | null) => (i === null ? null : t.strings[i]);
  return {
    run: t.run,
    calls: t.calls.map((c) => ({
      ...c,
      attempts: c.attempts.map((a) => [
        a[A.spanId], a[A.attempt], t.t0 + a[A.startedAt], t.t0 + a[A.endedAt], text(a[A.outcome]), text(a[A.code]), text(a[A.errorClass]),
        a[A.retryable], a[A.retryAfterMs], a[A.backoffMs], text(a[A.decision]), a[A.message], text(a[A.traceId]),
      ]),
    })),
    toldSteps: t.toldSteps,
    codedBy: t.codedBy,
  };
}

describe.each(DIALECTS)("appendRunPage over getRunTimeline pages (%s)", (dialect) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
    const { runs, spans, errors } = everyDecisionRun();
    const lost = { ...errors[0]!, eventId: "lost-err", callId: "c11", tool: "refund_payment", occurredAt: H + 30_000 };
    await writeRows(store, "default", {
      runs: runs.map((row, index) => ({ index, row })),
      spans: spans.map((row, index) => ({ index, row })),
      toolErrors: [...errors, lost].map((row, index) => ({ index, row })),
    }, H + 200_000);
  });
  afterAll(async () => {
    await store.close();
  });

  it("puts the pages of every size back together as the whole run", async () => {
    const whole = (await getRunTimeline(store, "default", RUN, { limit: 1000 }))!;
    expect(whole.page).toEqual({ next: null, totalAttempts: 18, totalCalls: 11 });
    for (let limit = 1; limit <= 19; limit++) {
      let merged = (await getRunTimeline(store, "default", RUN, { limit }))!;
      const pages = [merged];
      while (merged.page.next !== null) {
        const page = (await getRunTimeline(store, "default", RUN, { limit, after: merged.page.next }))!;
        pages.push(page);
        merged = appendRunPage(merged, page);
      }
      expect({ limit, pages: pages.length }).toEqual({ limit, pages: Math.max(1, Math.ceil(18 / limit)) });
      expect({ limit, ...decoded(merged) }).toEqual({ limit, ...decoded(whole) });
      expect(merged.page).toEqual({ next: null, totalAttempts: 18, totalCalls: 11 });
      expect(merged.t0).toBe(whole.t0);
    }
  });
});
