import type { ToldReleaseCounts } from "@/lib/drift/model-behaviour";
import type { Executor } from "../store/types";

/**
 * Per (tool, code, release) of a project: surfaced errors whose next step is decided and those the
 * model recovered from, for the model behaviour rule. Errors without a release cannot be compared
 * between releases and are left out. Sorted in code-unit order so the rule sees one order on both engines.
 */
export async function loadToldReleaseCounts(db: Executor, projectId: string): Promise<ToldReleaseCounts[]> {
  const rows = await db.all<ToldReleaseCounts>(
    `SELECT tool, code, release, min(first_seen) AS "firstSeen",
       sum(CASE WHEN step <> 'pending' THEN errors ELSE 0 END) AS decided,
       sum(CASE WHEN step IN ('recovered', 'replaced') THEN errors ELSE 0 END) AS recovered
     FROM told_step_counts WHERE project_id = @project AND release <> '' GROUP BY tool, code, release`,
    { project: projectId },
  );
  const key = (r: ToldReleaseCounts) => [r.tool, r.code, r.release];
  return rows
    .map((r) => ({ ...r, firstSeen: Number(r.firstSeen), decided: Number(r.decided), recovered: Number(r.recovered) }))
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
      return 0;
    });
}
