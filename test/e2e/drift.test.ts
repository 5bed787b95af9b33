import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { codeReleaseHistorySchema } from "@/lib/contracts/drift";
import { issueId } from "@/lib/triage/issue-batch";
import { useBrowserSession } from "../helpers/browser-session";
import { Scenario } from "../unit/drift/scenario";

const XSS_CODE = "<img src=x onerror=alert(1)>";

async function seedDrift(store: Store, project: string): Promise<void> {
  const s = new Scenario(project, store);
  const search = (v: string, day: number) => ({ tool: "search", toolVersion: v, day });
  s.failing(40, { ...search("1.3.0", 0), code: "upstream_timeout", retryable: true, decision: "retried" }).ok(60, search("1.3.0", 0));
  s.failing(30, { ...search("1.3.0", 0), code: "upstream_unavailable", retryable: true, recovers: true, decision: "retried" });
  s.failing(25, { ...search("1.3.0", 0), code: "index_stale", retryable: false });
  s.failing(38, { ...search("1.4.0", 3), code: "upstream_timeout", retryable: false, decision: "surfaced" }).ok(60, search("1.4.0", 3));
  s.failing(30, { ...search("1.4.0", 3), code: "upstream_unavailable", retryable: true, recovers: false, decision: "retried" });
  s.failing(12, { ...search("1.4.0", 3), code: XSS_CODE, errorClass: "ToolArgumentValidationError", outcome: "invalid_arguments", retryable: false });
  const refusal = { tool: "cancel_booking", errorClass: "ToolRefusal", outcome: "declined", retryable: false, decision: "delivered" };
  s.failing(25, { ...refusal, toolVersion: "1.2.0", code: "booking_locked", told: "booking_locked: booking bk_123 is locked" }).ok(50, { tool: "cancel_booking", toolVersion: "1.2.0" });
  s.failing(25, { ...refusal, toolVersion: "1.3.0", code: "booking_frozen", told: "booking_frozen: booking bk_987 is locked", day: 2 }).ok(50, { tool: "cancel_booking", toolVersion: "1.3.0", day: 2 });
  await s.settled();
}

const session = useBrowserSession({ seed: seedDrift, viewport: { width: 1400, height: 1000 } });
const { pageErrors } = session;

const cards = () => session.page().locator('[data-testid="drift-finding"]');
const sentences = () => session.page().locator('[data-testid="drift-finding"] > p').allInnerTexts();

describe("Drift page", () => {
  it("lists the seeded findings by severity, each with its sentence and links to runs on both sides", async () => {
    await session.page().goto(session.server().at(`/drift`));
    await cards().first().waitFor();
    expect(await sentences()).toEqual([
      "upstream_timeout on search was retryable, decision retried in 1.3.0 (40 calls) and is permanent, decision surfaced in 1.4.0 (38 calls): a repurposed code in a minor release, a SemVer violation; clients that retry upstream_timeout will now fail closed: treat it as permanent from 1.4.0 and surface it instead of retrying.",
      "upstream_unavailable on search recovered on a later attempt in 100% of calls in 1.3.0 (30 calls) and in 0% in 1.4.0 (30 calls) while still claiming to be retryable: behaviour drift in a minor release, a SemVer violation; retrying upstream_unavailable no longer helps: cap its retries or surface it at once from 1.4.0.",
      "booking_locked on cancel_booking in 1.2.0 (25 calls) is gone and booking_frozen in 1.3.0 (25 calls) took over with the same class, retryability, outcome and decision: a renamed code in a minor release, a SemVer violation; clients that match booking_locked must match booking_frozen from 1.3.0: add the new code to every rule that names the old one.",
      "index_stale on search was seen in 1.3.0 (25 calls) and on none of the 140 calls of search in 1.4.0: a code removed in a minor release, a SemVer violation; clients that branch on index_stale will not see it from 1.4.0: find in the linked runs what replaced it before relying on that rule.",
      `${XSS_CODE} on search appears in 1.4.0 (12 calls) and was absent from the 155 calls of search in 1.3.0: a code added in a minor release, which SemVer allows; clients have no rule for ${XSS_CODE} yet: decide whether to retry or surface it before upgrading to 1.4.0.`,
    ]);
    expect(await cards().evaluateAll((els) => els.map((e) => e.getAttribute("data-severity")))).toEqual(["critical", "high", "high", "high", "info"]);
    // Codes are rendered as code elements, and the hostile one as text.
    expect(await cards().first().locator("p code").allInnerTexts()).toEqual(["upstream_timeout", "search", "upstream_timeout"]);
    expect(await session.page().locator("img").count()).toBe(0);

    const first = cards().first();
    const hrefs = await first.locator("a").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    // Every link keeps the project; the card leads to the tool and code pages, the code's issue and the
    // release after, then to the runs on both sides.
    const p = `project=${session.server().project}`;
    expect(hrefs).toEqual([
      `/tools/search?${p}&code=upstream_timeout`,
      `/codes/upstream_timeout?${p}`,
      `/issues?${p}&issue=${issueId(session.server().project, "search", "upstream_timeout")}`,
      `/releases/1.4.0?${p}`,
      `/runs/run-1?${p}`,
      `/runs/run-2?${p}`,
      `/runs/run-3?${p}`,
      `/runs?${p}&code=upstream_timeout&release=1.3.0`,
      `/runs/run-156?${p}`,
      `/runs/run-157?${p}`,
      `/runs/run-158?${p}`,
      `/runs?${p}&code=upstream_timeout&release=1.4.0`,
    ]);
    await session.page().screenshot({ path: "test-results/drift-page.png", fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it("keeps filters in the URL: kind select, code input, and a direct link", async () => {
    await session.page().goto(session.server().at(`/drift`));
    await cards().first().waitFor();
    await session.page().getByLabel("Kind").selectOption("renamed");
    await session.page().waitForURL(/kind=renamed/);
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().getAttribute("data-kind")).toBe("renamed");

    await session.page().getByRole("button", { name: "Clear" }).click();
    await session.page().waitForURL((u) => u.search === `?project=${session.server().project}`);
    await session.page().getByRole("textbox", { name: "Code", exact: true }).fill("index_stale");
    await session.page().getByRole("textbox", { name: "Code", exact: true }).press("Enter");
    await session.page().waitForURL(/code=index_stale/);
    await expect.poll(() => cards().count()).toBe(1);
    expect(await cards().first().getAttribute("data-kind")).toBe("removed");

    // A rename is found under its new name too; server-rendered on first paint.
    const res = await fetch(session.server().at(`/drift?code=booking_frozen&tool=cancel_booking`));
    expect(await res.text()).toContain("took over with the same class");
    await session.page().goto(session.server().at(`/drift?severity=low`));
    await session.page().getByText("No finding matches these filters.").waitFor();
    expect(pageErrors).toEqual([]);
  });

  it("serves a code's history per release so a chart can show the change point", async () => {
    const res = await fetch(session.server().at(`/api/v1/drift/codes/upstream_timeout/history?tool=search`));
    expect(res.status).toBe(200);
    const body = codeReleaseHistorySchema.parse(await res.json());
    expect(body.order).toBe("semver");
    expect(body.points.map((p) => [p.release, p.calls, p.byClass, p.byOutcome, p.retryable, p.recoveryRate])).toEqual([
      ["1.3.0", 40, { ToolFailure: 40 }, { failed: 40 }, { retryable: 40, permanent: 0 }, 0],
      ["1.4.0", 38, { ToolFailure: 38 }, { failed: 38 }, { retryable: 0, permanent: 38 }, 0],
    ]);
    const bad = await fetch(session.server().at(`/api/v1/drift?kind=exploded`));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("bad_request");
    const summary = await fetch(session.server().at(`/api/v1/drift/summary`));
    expect(((await summary.json()) as { entries: unknown[] }).entries).toContainEqual({ code: "booking_frozen", tool: "cancel_booking", findings: 1, severity: "high", kinds: ["renamed"] });
  });
});
