import { traceLinkInputSchema, traceLinkTemplate, traceLinkToolName, type TraceLink, type TraceLinkInput } from "@/lib/contracts/trace-links";
import { noChange, type Audited } from "../audit/audited-change";
import type { Executor, Tx } from "../client";

interface Row {
  preset: string;
  template: string;
  settings: string;
  updatedAt: number;
}

/** The project's link to its tracing tool, or null when none is set (or the stored settings no longer parse). */
export async function getTraceLink(db: Executor, projectId: string): Promise<TraceLink | null> {
  const row = await db.get<Row>(`SELECT preset, template, settings, updated_at AS "updatedAt" FROM trace_links WHERE project_id = ?`, [projectId]);
  if (!row) return null;
  const settings = traceLinkInputSchema.safeParse(JSON.parse(row.settings));
  if (!settings.success) return null;
  return { settings: settings.data, template: row.template, toolName: traceLinkToolName(settings.data), updatedAt: row.updatedAt };
}

/** Sets (or replaces) the project's link, audited with the template before and after; the same settings again change nothing. */
export async function setTraceLinkChange(tx: Tx, projectId: string, input: TraceLinkInput, userId: string | null, now: number): Promise<Audited<TraceLink>> {
  const before = await getTraceLink(tx, projectId);
  const template = traceLinkTemplate(input);
  const settings = JSON.stringify(input);
  if (before && before.template === template && JSON.stringify(before.settings) === settings) return { result: before, audit: noChange("the link already is as asked") };
  await tx.run(
    `INSERT INTO trace_links (project_id, preset, template, settings, updated_at, updated_by) VALUES (@project, @preset, @template, @settings, @now, @user)
     ON CONFLICT (project_id) DO UPDATE SET preset = excluded.preset, template = excluded.template, settings = excluded.settings,
       updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    { project: projectId, preset: input.preset, template, settings, now, user: userId },
  );
  return {
    result: { settings: input, template, toolName: traceLinkToolName(input), updatedAt: now },
    audit: { projectId, action: "trace_link.set", target: traceLinkToolName(input), detail: { from: before?.template ?? null, to: template } },
  };
}

/** Removes the project's link, audited; nothing to remove changes nothing. */
export async function removeTraceLinkChange(tx: Tx, projectId: string): Promise<Audited<null>> {
  const before = await getTraceLink(tx, projectId);
  if (!before) return { result: null, audit: noChange("no link is set") };
  await tx.run("DELETE FROM trace_links WHERE project_id = ?", [projectId]);
  return { result: null, audit: { projectId, action: "trace_link.removed", target: before.toolName, detail: { from: before.template } } };
}
