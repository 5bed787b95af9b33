// Tests read a stored span as it was written: its own columns with its emitter's values
// (db/schema/span-emitters.ts) in place of the emitter id, which differs between databases.
import { getTableColumns } from "drizzle-orm";
import { spanEmitters } from "@/db/schema/span-emitters";
import { toolCallSpans } from "@/db/schema/tool-call-spans";

const own = Object.values(getTableColumns(toolCallSpans))
  .map((c) => c.name)
  .filter((name) => name !== "emitter_id");
const emitter = Object.values(getTableColumns(spanEmitters))
  .map((c) => c.name)
  .filter((name) => !["id", "project_id", "key"].includes(name));

/**
 * A FROM item named `tool_call_spans` whose rows carry the emitter's columns: `SELECT … FROM ${SPANS}`
 * reads like the span table did before the dictionary. PostgreSQL's generated text vector is left out.
 */
export const SPANS = `(SELECT ${own.map((c) => `s.${c}`).join(", ")}, ${emitter.map((c) => `em.${c}`).join(", ")}
  FROM tool_call_spans s JOIN span_emitters em ON em.id = s.emitter_id) AS tool_call_spans`;

/** The columns of a span read through `SPANS`, by field name. */
export const SPAN_COLUMNS = [
  ...Object.entries(getTableColumns(toolCallSpans)).filter(([field]) => field !== "emitterId"),
  ...Object.entries(getTableColumns(spanEmitters)).filter(([field]) => !["id", "projectId", "key"].includes(field)),
];
