/**
 * SLO read benchmark: seeds a temporary SQLite database with realistic spans over 7 days (the read
 * benchmark's generator), then times, interleaved round by round, the Tools list (read from the
 * hourly rollups: the baseline) against the SLO reads, which count ended calls from the call
 * endings rollup for whole hours and from raw spans and told steps at the windows' partial edges,
 * and list the failures that spent the budget from the window's failed attempts. Prints each
 * read's median and its ratio to the baseline's median in the same run, with the ratio's spread
 * (p10–p90 of the per-round ratios).
 *
 *   npx tsx bench/slo.ts [--spans 200000] [--rounds 15]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openStore } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { listTools } from "@/db/queries/list-tools";
import { createSlo } from "@/db/slos/slos";
import { listSloStatuses, sloBurnRates, sloDetail } from "@/db/slos/slo-status";
import { resolveWindow } from "@/lib/contracts/filters";
import { seedRealistic } from "./read";

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function main() {
  const args = process.argv.slice(2);
  const arg = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
  const spans = arg("--spans", 200_000);
  const rounds = arg("--rounds", 15);
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-bench-slo-"));
  const store = await openStore(path.join(dir, "bench.db"));
  try {
    await ensureDefaultProject(store);
    const now = Date.now();
    await seedRealistic(store, spans, now);
    const all = await createSlo(store, { project: "default", name: "all", tools: ["tool_*"], objective: 0.99, windowDays: 28, countDeclines: false, countRecovered: false, receiverId: null }, now);
    const one = await createSlo(store, { project: "default", name: "one", tools: ["tool_00_search"], objective: 0.99, windowDays: 28, countDeclines: false, countRecovered: false, receiverId: null }, now);
    const window = resolveWindow({ range: "7d" }, now);
    const reads: [string, () => Promise<unknown>][] = [
      ["listTools, 7 days (baseline, hourly rollups)", () => listTools(store, { projectId: "default", window, filters: {}, sort: "failures", dir: "desc", page: { offset: 0, limit: 100 } })],
      ["GET /slos: 2 SLOs (all 40 tools; the busiest one)", () => listSloStatuses(store, "default", now)],
      ["GET /slos/detail: the SLO of all 40 tools", () => sloDetail(store, "default", all.slo.id, now)],
      ["alert job: burn rates of the SLO of all tools", () => sloBurnRates(store, all.slo, now)],
      ["alert job: burn rates of the SLO of one tool", () => sloBurnRates(store, one.slo, now)],
    ];
    const times = reads.map(() => [] as number[]);
    for (const [, fn] of reads) await fn(); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (const [i, [, fn]] of reads.entries()) {
        const t0 = performance.now();
        await fn();
        times[i]!.push(performance.now() - t0);
      }
    }
    console.log(`\n${spans} spans over 7 days, SQLite, ${rounds} interleaved rounds`);
    const base = times[0]!;
    for (const [i, [label]] of reads.entries()) {
      const ratios = times[i]!.map((t, r) => t / base[r]!);
      console.log(
        `${label.padEnd(52)} median ${quantile(times[i]!, 0.5).toFixed(1).padStart(8)} ms   ×${(quantile(times[i]!, 0.5) / quantile(base, 0.5)).toFixed(1)} baseline (per-round p10–p90 ×${quantile(ratios, 0.1).toFixed(1)}–×${quantile(ratios, 0.9).toFixed(1)})`,
      );
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
