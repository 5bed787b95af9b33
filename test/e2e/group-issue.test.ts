import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { otlpFormat } from "@/lib/ingest/formats/otlp";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { ingestEnvelope } from "@/server/ingest/ingest-envelope";
import { useBrowserSession } from "../helpers/browser-session";

const T = Date.now() - 3_600_000;
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });

// Three failures an OTLP agent sent without a code: one failure group, so one issue.
async function seed(store: Store, project: string): Promise<void> {
  const spans = [1, 2, 3].map((n) => ({
    traceId: "0000000000000000000000000000000b", spanId: n.toString(16).padStart(16, "0"), name: "execute_tool book", kind: 1,
    startTimeUnixNano: `${T + n * 1000}000000`, endTimeUnixNano: `${T + n * 1000 + 50}000000`,
    attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "book"), str("gen_ai.tool.call.id", `call_${n}`), str("faultline.run_id", `run-${n % 2}`), str("error.type", "BookingMissingError")],
    status: { code: 2, message: `booking bk_${n}${n}${n} not found` },
  }));
  const request = { resourceSpans: [{ resource: { attributes: [str("service.name", "travel")] }, scopeSpans: [{ scope: { name: "agent" }, spans }] }] };
  await ingestEnvelope(store, project, otlpFormat, decodeJsonRequest(request));
}

const session = useBrowserSession({ seed, viewport: { width: 1400, height: 900 } });

describe("the issue of an unclassified failure group in Chromium", () => {
  it("lists it by shape and sample, links the group on the Codes page, and is resolved once the group is named there", async () => {
    const page = session.page();
    await page.goto(session.server().at("/issues"));
    const link = page.getByRole("link", { name: "book / unclassified: booking <id> not found" });
    await link.waitFor();
    expect(await page.getByTestId("issue-sample").textContent()).toBe("booking bk_333 not found");
    await link.click();
    const facts = page.getByTestId("issue-group");
    await facts.waitFor();
    expect(await facts.locator("dd").evaluateAll((dds) => dds.slice(0, 3).map((d) => (d.textContent ?? "").trim()))).toEqual([
      "booking <id> not found", "booking bk_333 not found", "BookingMissingError / —",
    ]);

    await page.getByTestId("issue-group-link").click();
    const row = page.locator("tr[id^='group-']");
    await row.waitFor();
    expect(new URL(page.url()).hash).toBe(`#${await row.getAttribute("id")}`);
    await row.getByRole("button", { name: "Name this failure" }).click();
    const form = page.getByRole("form", { name: "Name this failure" });
    await form.getByLabel("Code").fill("booking_missing");
    await form.getByRole("button", { name: "Save rule" }).click();
    await form.getByRole("status", { name: "Re-classification" }).getByText("History re-classified").waitFor();

    await page.goBack();
    await expect.poll(() => page.getByTestId("issue-detail-state").textContent(), { timeout: 20_000 }).toBe("resolved");
    await page.getByRole("list", { name: "History" }).getByText("classification: named as booking_missing by rule “booking_missing (book)” v1").waitFor();
    expect(await page.getByTestId("issue-named-as").textContent()).toBe("booking_missing (no issue for it yet)");
  });
});
