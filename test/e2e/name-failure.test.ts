import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { otlpFormat } from "@/lib/ingest/formats/otlp";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { ingestEnvelope } from "@/server/ingest/ingest-envelope";
import { useBrowserSession } from "../helpers/browser-session";

const T = Date.now() - 3_600_000;
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });

// Three failures an OTLP agent sent without a code (one group), and one success.
async function seed(store: Store, project: string): Promise<void> {
  const spans = [1, 2, 3, 4].map((n) => ({
    traceId: "0000000000000000000000000000000a", spanId: n.toString(16).padStart(16, "0"), name: "execute_tool book", kind: 1,
    startTimeUnixNano: `${T + n * 1000}000000`, endTimeUnixNano: `${T + n * 1000 + 50}000000`,
    attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "book"), str("gen_ai.tool.call.id", `call_${n}`), str("faultline.run_id", `run-${n % 2}`),
      ...(n < 4 ? [str("error.type", "BookingMissingError")] : [])],
    ...(n < 4 ? { status: { code: 2, message: `booking bk_${n}${n}${n} not found` } } : {}),
  }));
  const request = { resourceSpans: [{ resource: { attributes: [str("service.name", "travel")] }, scopeSpans: [{ scope: { name: "agent" }, spans }] }] };
  await ingestEnvelope(store, project, otlpFormat, decodeJsonRequest(request));
}

const session = useBrowserSession({ seed, viewport: { width: 1400, height: 900 } });

describe("naming an unclassified failure in Chromium", () => {
  it("shows the group on the Codes page, previews exact counts, saves and re-classifies history with progress", async () => {
    const page = session.page();
    await page.goto(session.server().at("/codes?range=24h"));
    const groups = page.getByRole("region", { name: "Unclassified failures" });
    const row = groups.locator("tbody tr").first();
    await row.waitFor();
    const cells = await row.locator("td").evaluateAll((tds) => tds.slice(0, 6).map((td) => (td.textContent ?? "").trim()));
    expect(cells).toEqual(["book", "BookingMissingError", "booking <id> not found", "—", "3", "2"]);

    await row.getByRole("button", { name: "Name this failure" }).click();
    const form = page.getByRole("form", { name: "Name this failure" });
    await form.getByLabel("Code").fill("booking_missing");
    await form.getByLabel("Class").selectOption("ToolRefusal");
    await form.getByLabel("Retryable").selectOption("no");
    expect(await form.getByLabel("Message or its shape").inputValue()).toBe("booking <id> not found");
    const preview = form.getByRole("status", { name: "Preview" });
    await preview.getByText("Would classify").waitFor();
    expect(await preview.textContent()).toBe("Would classify 3 of 3 stored failures in this window: 3 unclassified now, 0 already-coded would change.");

    await form.getByRole("button", { name: "Save rule" }).click();
    const progress = form.getByRole("status", { name: "Re-classification" });
    await progress.getByText("History re-classified").waitFor();
    await page.getByRole("link", { name: "booking_missing" }).first().waitFor();
    await groups.getByText("Every failure in this window has a code.").waitFor();
    // The named group has left the list; the form and its outcome stay until the user closes them.
    expect(await progress.textContent()).toBe("History re-classified: 3 of 3 stored failures changed.");

    // The run timeline and the attempt panel say which rule, at which version, coded the call.
    await page.goto(session.server().at("/runs/run-1"));
    const bar = page.locator('[data-span-id="0000000000000001"]');
    await bar.waitFor();
    const source = "set by rule “booking_missing (book)” version 1";
    expect(await bar.getAttribute("data-code-source")).toBe(source);
    expect(await bar.getAttribute("title")).toBe(`code booking_missing, ${source}`);
    await bar.click();
    expect(await page.getByTestId("detail-code-source").innerText()).toBe(source);
    // The conformance page counts the run's failures as coded by the project's rules.
    await page.goto(session.server().at("/conformance"));
    const bySource = page.getByTestId("code-sources");
    const sourceCells = await bySource.locator("tbody tr").first().locator("th, td").evaluateAll((els) => els.map((e) => (e.textContent ?? "").trim()));
    expect(sourceCells).toEqual(["OTLP tracestravel", "3", "0", "3", "0", "0"]);
  });
});
