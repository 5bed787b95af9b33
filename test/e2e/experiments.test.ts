import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { createKey } from "@/db/keys";
import { wordingSetSchema } from "@/lib/contracts/wordings";
import { MemorySink, RemoteWordings, ToolFailure, ToolRunner, VirtualTime, seededRandom, type ToolCallRequest } from "@/lib/runtime";
import { createModel } from "@/scripts/demo-model";
import { seriousViolations } from "../helpers/axe";
import { useBrowserSession } from "../helpers/browser-session";
import { ingestNativeBatch } from "../helpers/ingest";
import { allRecords, type ToldRunSpec } from "../helpers/told-runs";

// Create an experiment from a code's wordings table, run demo traffic (the demo's simulated model and
// the real runtime, taking the project's wording set over HTTP with a read key), watch the verdict
// arrive, promote the winner.
const T = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 86_400_000;
const TERSE = "fare class no longer sold";
const HINT = "fare class is no longer sold; pick another fare class from the search_flights results";
const told = (text: string) => `error: upstream_rejected: ${text}\nretryable: no (repeating the same call will not help)`;

async function seed(store: Store, project: string): Promise<void> {
  const specs: ToldRunSpec[] = Array.from({ length: 20 }, (_, i) => ({
    runId: `seed-${i}`, release: "1.3.2", tool: "book_flight", code: "upstream_rejected", told: told(i % 2 ? HINT : TERSE), next: i % 2 && i % 5 ? "recovered" : "gave_up", at: T + i * 60_000,
  }));
  await ingestNativeBatch(store, project, { service: "support-agent" }, specs.flatMap(allRecords));
}

const session = useBrowserSession({ seed, viewport: { width: 1500, height: 1100 } });

/**
 * `runs` runs of the demo's booking agent against the server's wording set; the records go through
 * ingest. Answers how many errors the runtime told with an experiment's wording, per variant.
 */
async function demoTraffic(runs: number): Promise<Record<string, number>> {
  const server = session.server();
  const { key } = await createKey(server.store, server.project, "demo read", "read");
  const wordings = new RemoteWordings({ baseUrl: server.url, project: server.project, apiKey: key });
  await wordings.refresh();
  expect(wordings.current()?.size).toBe(1);
  const rnd = seededRandom(5);
  const dice = { chance: (p: number) => rnd() < p, pick: <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!, between: (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1)) };
  const model = createModel(dice);
  const time = new VirtualTime(Date.now() - 3_600_000);
  const sink = new MemorySink();
  const book = {
    name: "book_flight",
    execute: (args: unknown) => {
      if ((args as { fare_class?: string }).fare_class === "B") throw new ToolFailure("book_flight", "upstream_rejected", { message: "HTTP 422" });
      return { booking: "BK1" };
    },
  };
  const runner = new ToolRunner({ agent: "support-agent", release: "1.4.0", tools: [book], sink, clock: time, scheduler: time, random: rnd, wordings });
  for (let r = 0; r < runs; r++) {
    const run = runner.startRun({ runId: `demo-${r}` });
    let requests: ToolCallRequest[] = [{ callId: `demo-${r}-c0`, tool: "book_flight", args: { passengers: 1, date: "2027-03-14", fare_class: "B" } }];
    for (let turn = 0; turn < 3 && requests.length > 0; turn++) {
      const results = await run.callAll(requests);
      time.advance(500);
      let n = 0;
      requests = results.flatMap((res, i) => model.react(res, requests[i]!, () => `demo-${r}-t${turn}-${n++}`, () => {}));
    }
    run.end();
    time.advance(5_000);
  }
  for (let at = 0; at < sink.records.length; at += 500) {
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
      body: JSON.stringify({ resource: { service: "support-agent" }, records: sink.records.slice(at, at + 500) }),
    });
    expect(res.status).toBe(200);
  }
  const told: Record<string, number> = {};
  for (const e of sink.ofType("tool_error")) if (e.variant !== undefined && e.told !== null) told[e.variant] = (told[e.variant] ?? 0) + 1;
  return told;
}

describe("Experiments", () => {
  it("creates an experiment from a code's wordings, runs it on demo traffic, and promotes the winner", async () => {
    const page = session.page();
    const server = session.server();
    await page.goto(server.at("/codes/upstream_rejected?range=7d"));
    await page.getByTestId("new-experiment").click();
    const form = page.getByRole("form", { name: "New experiment" });
    await form.waitFor();
    const texts = form.getByRole("textbox", { name: "Wording" });
    expect((await texts.evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value))).sort()).toEqual([HINT, TERSE].sort());
    // The control is the told text of today: the terse one.
    await texts.nth(0).fill(TERSE);
    await texts.nth(1).fill(HINT);
    await form.getByRole("textbox", { name: "Experiment id" }).fill("fare-wording");
    await form.getByRole("textbox", { name: "Variant id" }).nth(1).fill("pick-another");
    await form.getByRole("button", { name: "Create draft" }).click();
    const detail = page.getByTestId("experiment-detail");
    await page.locator('[data-testid="experiment-detail"][data-state="draft"]').waitFor();
    await detail.getByRole("button", { name: "Start" }).click();
    await page.locator('[data-testid="experiment-detail"][data-state="running"]').waitFor();

    // A model that repeats the call is told again: a run may count more than one exposure.
    const told = await demoTraffic(300);
    // The page polls: it shows every exposure the runtime told once the last batch is read, and the verdict with them.
    for (const [variant, n] of Object.entries(told)) {
      await detail.locator(`tr[data-variant="${variant}"] [data-testid="exposures"]`).filter({ hasText: new RegExp(`^${n}$`) }).waitFor({ timeout: 30_000 });
    }
    await page.locator('[data-testid="experiment-verdict"][data-kind="winner"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("experiment-verdict").innerText()).toContain("pick-another self-corrects");
    const exposures = await detail.getByTestId("exposures").allInnerTexts();
    expect(exposures.map(Number)).toEqual([told.control, told["pick-another"]]);
    expect(exposures.every((n) => Number(n) > 50)).toBe(true);
    expect(await detail.locator('tr[data-variant="pick-another"] [data-testid="self-correction"]').innerText()).toMatch(/^\d+\.\d% \(\d+\.\d%–\d+\.\d%\)$/);
    expect(await seriousViolations(page)).toEqual([]);

    await detail.getByRole("button", { name: "Promote pick-another" }).click();
    await page.locator('[data-testid="experiment-detail"][data-state="stopped_winner"]').waitFor();
    expect(await page.locator('tr[data-experiment="fare-wording"]').innerText()).toContain("stopped winner: pick-another");
    // What runtimes are told now: the winner, promoted.
    const res = await fetch(`${server.url}/api/v1/wordings?project=${server.project}`, { headers: { authorization: `Bearer ${(await createKey(server.store, server.project, "check", "read")).key}` } });
    expect(wordingSetSchema.parse(await res.json()).entries).toEqual([
      { code: "upstream_rejected", tool: null, experiment: "fare-wording", state: "promoted", variants: [{ id: "pick-another", text: HINT, weight: 50 }].map((v) => ({ ...v, weight: 100 })) },
    ]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
