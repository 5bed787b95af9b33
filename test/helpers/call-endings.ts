// `call_endings_hourly` beside a recount of the same rows from the stored spans by the SLO's raw
// read (sloCallBuckets: what the SLO pages read before the rollup), per tool, hour and kind of ending.
import type { Store } from "@/db/client";
import { sloCallBuckets } from "@/db/slos/slo-counts";

export interface EndingCount {
  tool: string;
  hour: number;
  failed: number;
  declined: number;
  recovered: number;
  calls: number;
}

const HOUR = 3_600_000;
const order = (rows: EndingCount[]) =>
  rows.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) || a.hour - b.hour || a.failed - b.failed || a.declined - b.declined || a.recovered - b.recovered);

/** The rollup's non-zero rows of a project (a move can leave a key at 0, which reads add as nothing). */
export async function callEndingRows(store: Store, project: string): Promise<EndingCount[]> {
  const rows = await store.all<Record<keyof EndingCount, number | string>>(
    "SELECT tool, hour, failed, declined, recovered, calls FROM call_endings_hourly WHERE project_id = ? AND calls <> 0",
    [project],
  );
  return order(rows.map((r) => ({ tool: String(r.tool), hour: Number(r.hour), failed: Number(r.failed), declined: Number(r.declined), recovered: Number(r.recovered), calls: Number(r.calls) })));
}

/** The same rows recounted from the raw spans and told steps, from `from` on (default: all). */
export async function recountCallEndings(store: Store, project: string, from = 0): Promise<EndingCount[]> {
  const tools = (await store.all<{ tool: string }>("SELECT DISTINCT tool FROM tool_call_spans WHERE project_id = ? ORDER BY tool", [project])).map((r) => r.tool);
  const out: EndingCount[] = [];
  for (const tool of tools) {
    for (const b of await sloCallBuckets(store, { project, tools: [tool], from, to: Number.MAX_SAFE_INTEGER, bucketMs: HOUR })) {
      for (const g of b.groups) out.push({ tool, hour: b.at, failed: g.failed ? 1 : 0, declined: g.declined ? 1 : 0, recovered: g.recovered ? 1 : 0, calls: g.calls });
    }
  }
  return order(out);
}
