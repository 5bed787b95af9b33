import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { extractToolSpans } from "@/lib/ingest/otlp/tool-spans";
import { normalizeOtlp } from "@/lib/ingest/normalize-otlp";
import { emptyRowBatch } from "@/lib/ingest/rows";
import { useBrowserSession } from "../helpers/browser-session";

// An emitter whose spans send what they can and leave the rest for Faultline to derive: Vercel AI
// SDK tool spans with their call ids, no run id and no attempt numbers, all successful. Every field
// is sent or derived, so the page must give no advice (no "add faultline.run_id").

const T = Date.now() - 3_600_000;
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const toolSpan = (spanId: string, callId: string, start: number) => ({
  traceId: TRACE, spanId, parentSpanId: "00f067aa0ba902b7", name: "ai.toolCall",
  startTimeUnixNano: `${start}000000`, endTimeUnixNano: `${start + 40}000000`,
  attributes: [str("ai.operationId", "ai.toolCall"), str("ai.toolCall.name", "lookup_order"), str("ai.toolCall.id", callId)],
});

/** Seeds through the OTLP reader itself, as `POST /v1/traces` would store it. */
async function seed(store: Store, project: string): Promise<void> {
  const request = decodeJsonRequest({
    resourceSpans: [{
      resource: { attributes: [str("service.name", "shop-assistant"), str("service.version", "2.4.0")] },
      scopeSpans: [{ scope: { name: "ai" }, spans: [toolSpan("a1a1a1a1a1a1a1a1", "call_1", T), toolSpan("b2b2b2b2b2b2b2b2", "call_1", T + 100), toolSpan("c3c3c3c3c3c3c3c3", "call_2", T + 200)] }],
    }],
  });
  await writeRows(store, project, normalizeOtlp(extractToolSpans(request), emptyRowBatch()));
}

const session = useBrowserSession({ seed, viewport: { width: 1400, height: 900 } });

describe("the conformance page for an emitter whose missing fields were all derived", () => {
  it("shows each field as sent or derived, says how, and advises nothing", async () => {
    const page = session.page();
    await page.goto(session.server().at("/conformance"));
    const emitters = page.locator("section[aria-labelledby='emitters-title']");
    await emitters.locator("tbody tr").first().waitFor();
    const cells = await emitters.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => (c.textContent ?? "").trim())));
    const none = "—0 spans";
    expect(cells).toEqual([
      ["shop-assistantVercel AI SDK", "3", "sent 3of 3", "derived 3of 3", "derived 3of 3", "sent 3of 3", none, none, none, "sent 3of 3", "none"],
    ]);
    // Per format, nothing is unknown: the same spans, the same answer.
    const formats = await page.locator("table").first().locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => (c.textContent ?? "").trim())));
    expect(formats).toEqual([["OTLP tracesotlp", "3", "0%0 of 3", "—0 spans", "0%0 of 3", "0%0 of 3"]]);
    const notes = await page.getByRole("list", { name: "Per emitter: derived fields and what to send" }).locator("li").evaluateAll((lis) =>
      lis.map((li) => [...li.querySelectorAll(":scope > span")].map((s) => (s.textContent ?? "").trim())),
    );
    expect(notes).toEqual([[
      "Vercel AI SDK",
      "run id derived: the trace id: one run per trace (correct unless one run spans several traces)",
      "attempt derived: numbered 1, 2, 3… by start time (to the nanosecond) among the call's spans",
      "Nothing to add: every field is sent or derived.",
    ]]);
    const text = await page.locator("main").innerText();
    // No advice line ("… missing on N of M: add …"), no Faultline attribute suggested, no false header.
    expect([/faultline\./.test(text), /missing on \d+ of \d+: add/.test(text), /never filled in/.test(text)]).toEqual([false, false, false]);
    await page.screenshot({ path: "test-results/conformance-derived.png", fullPage: true });
  });
});
