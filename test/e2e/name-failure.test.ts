import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { createClassificationRule } from "@/db/classify/rules";
import { ruleInputSchema } from "@/lib/contracts/classification";
import { otlpFormat } from "@/lib/ingest/formats/otlp";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { ingestEnvelope } from "@/server/ingest/ingest-envelope";
import { useBrowserSession } from "../helpers/browser-session";

const T = Date.now() - 3_600_000;
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });

const span = (n: number, message: string | null, errorType: string | null) => ({
  traceId: "0000000000000000000000000000000a", spanId: n.toString(16).padStart(16, "0"), name: "execute_tool book", kind: 1,
  startTimeUnixNano: `${T + n * 1000}000000`, endTimeUnixNano: `${T + n * 1000 + 50}000000`,
  attributes: [str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "book"), str("gen_ai.tool.call.id", `call_${n}`), str("faultline.run_id", `run-${n % 2}`),
    ...(errorType ? [str("error.type", errorType)] : [])],
  ...(message ? { status: { code: 2, message } } : {}),
});
const ingestSpans = async (store: Store, project: string, spans: ReturnType<typeof span>[]) => {
  const request = { resourceSpans: [{ resource: { attributes: [str("service.name", "travel")] }, scopeSpans: [{ scope: { name: "agent" }, spans }] }] };
  await ingestEnvelope(store, project, otlpFormat, decodeJsonRequest(request));
};

// Three failures an OTLP agent sent without a code (one group), and one success.
async function seed(store: Store, project: string): Promise<void> {
  await ingestSpans(store, project, [1, 2, 3, 4].map((n) => (n < 4 ? span(n, `booking bk_${n}${n}${n} not found`, "BookingMissingError") : span(n, null, null))));
}

const session = useBrowserSession({ seed, viewport: { width: 1400, height: 900 } });

describe("naming an unclassified failure in Chromium", () => {
  it("shows the group on the Codes page, previews exact counts, saves and re-classifies history with progress; a reorder and a pack switch show in the codes' histories", async () => {
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

    // A reorder and a switch of the built-in pack from the settings page are in the history of the
    // codes whose calls they moved, on those codes' pages even once no stored call carries them (drift
    // folded the rate limits first). A second rule that also matches the bookings, and three rate
    // limits the pack codes, are written straight to the project.
    const server = session.server();
    const { store, project } = server;
    await store.transaction((tx) =>
      createClassificationRule(tx, project, "r_00000000000b", ruleInputSchema.parse({ name: "Any booking", match: { message: "booking*" }, set: { code: "booking_failed" } }), "test", Date.now()));
    await ingestSpans(store, project, [5, 6, 7].map((n) => span(n, "rate limit exceeded", null)));
    await server.driftFolded();
    const applied = async (revision: number) => {
      for (;;) {
        const r = await store.get<{ n: number }>("SELECT applied_revision AS n FROM classification_state WHERE project_id = ?", [project]);
        if (Number(r?.n) === revision) return;
        await new Promise((done) => setTimeout(done, 50));
      }
    };
    await page.goto(server.at(`/settings/projects/${project}/classification`));
    const rules = page.getByRole("region", { name: "Classification rules" });
    const status = rules.getByRole("status", { name: "Re-classification" });
    await status.getByText("(revision 2)").waitFor();
    await rules.locator("tbody tr").nth(1).getByRole("button", { name: "Up" }).click();
    await status.getByText("History is classified by the current rules (revision 3).").waitFor();
    await applied(3);
    await page.getByRole("region", { name: "Built-in rules" }).getByRole("checkbox").click();
    await status.getByText("History is classified by the current rules (revision 4).").waitFor();
    await applied(4);

    const at = async (sql: string) => new Date(Number((await store.get<{ at: number }>(sql, [project]))!.at)).toISOString();
    const anyBooking = await at("SELECT at FROM classification_rule_versions WHERE project_id = ? AND rule_id = 'r_00000000000b'");
    const reordered = await at("SELECT at FROM classification_events WHERE project_id = ? AND action = 'reordered'");
    const switched = await at("SELECT at FROM classification_events WHERE project_id = ? AND action = 'builtin_off'");
    const ruleChanges = async (code: string) => {
      await page.goto(server.at(`/codes/${code}`));
      const list = page.getByTestId("rule-edits").locator("li");
      await list.first().waitFor();
      return list.allInnerTexts();
    };
    expect(await ruleChanges("booking_failed")).toEqual([`rule “Any booking” created as v1 at ${anyBooking}`, `rules reordered at ${reordered}`]);
    expect(await ruleChanges("rate_limited")).toEqual([`built-in pack switched off at ${switched}`]);
  });
});
