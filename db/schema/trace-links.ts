import { int, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";
import { users } from "./users";

/**
 * A project's link to the tracing tool that holds the same traces (Langfuse, Phoenix, Jaeger,
 * Grafana Tempo or a custom URL): one row per project, none when no link is set. `template` is the
 * URL with `{trace_id}` (and optionally `{span_id}`) placeholders, built from `settings` (the form's
 * fields as JSON, lib/contracts/trace-links.ts) when a preset was chosen.
 */
export const traceLinks = table("trace_links", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id),
  preset: text("preset").notNull(),
  template: text("template").notNull(),
  settings: text("settings").notNull(),
  updatedAt: int("updated_at").notNull(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
});

export const traceLinksPg = pgTableOf(traceLinks);
