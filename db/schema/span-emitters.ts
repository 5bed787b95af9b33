import { serial, table, text, uniqueIndex } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";

/**
 * What a span shares with the emitter that sent it, stored once per distinct combination and
 * referenced from `tool_call_spans.emitter_id`: a project has a few hundred of these against millions
 * of spans (docs/ingest-performance.md, "Storage per span"). Rows are never deleted: they outlive the
 * spans that referenced them (retention keeps them; a few hundred rows cost less than a sweep).
 */
export const spanEmitters = table(
  "span_emitters",
  {
    id: serial("id"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    /**
     * The values below as a JSON array (`["1.2.0",null,…,"native"]`), unique per project: a unique
     * index over the nullable columns themselves would treat NULLs as distinct and never conflict.
     * JavaScript's `JSON.stringify`, SQLite's `json_array` and PostgreSQL's `array_to_json` print it alike.
     */
    key: text("key").notNull(),
    toolVersion: text("tool_version"),
    release: text("release"),
    service: text("service"),
    environment: text("environment"),
    sdkName: text("sdk_name"),
    sdkVersion: text("sdk_version"),
    source: text("source").notNull(),
  },
  (t) => [uniqueIndex("span_emitters_project_key_uq").on(t.projectId, t.key)],
);

/** The emitter columns of a span, in the order of the dictionary key. */
export const SPAN_EMITTER_FIELDS = ["toolVersion", "release", "service", "environment", "sdkName", "sdkVersion", "source"] as const;

/** The PostgreSQL table derived from the declaration. */
export const spanEmittersPg = pgTableOf(spanEmitters);
