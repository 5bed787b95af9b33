import { parseTextQuery, type TextTerm } from "@/lib/contracts/text-query";
import type { TextSearchAnswer, TextSearchQuery, TextField } from "@/lib/contracts/text-search";
import { markSnippet } from "@/lib/search/snippet";
import type { Dialect, Executor } from "../store/types";

// Full-text search (docs/search.md). SQLite matches through the FTS5 tables span_message_fts and
// told_text_fts, PostgreSQL through the generated tsvector columns and their GIN indexes
// (migrations sqlite/0019, postgres/0014). Terms hold only letters and digits
// (lib/contracts/text-query.ts), so the engine query built here needs no escaping and cannot be
// malformed; every term is quoted all the same, so FTS5 never reads AND/OR/NOT/NEAR as operators.

/**
 * The PostgreSQL-only generated full-text columns (not declared in db/schema: drizzle-kit has no
 * tsvector kind), by table.
 */
export const PG_TEXT_COLUMNS = { tool_call_spans: "message_tsv", tool_errors: "told_tsv" } as const;

/** The FTS5 query of the terms: each one a quoted phrase, `*` for a prefix, all of them required. */
export function fts5Query(terms: readonly TextTerm[]): string {
  return terms.map((t) => `"${t.words.join(" ")}"${t.prefix ? " *" : ""}`).join(" AND ");
}

/** The PostgreSQL tsquery text of the terms: phrases with `<->`, `:*` for a prefix, all of them required. */
export function tsQuery(terms: readonly TextTerm[]): string {
  return terms
    .map((t) => `(${t.words.map((w, i) => `'${w}'${t.prefix && i === t.words.length - 1 ? ":*" : ""}`).join(" <-> ")})`)
    .join(" & ");
}

/** The matching rows of one table, per engine: the FROM and WHERE parts, and the engine's query parameter. */
function matchSource(dialect: Dialect, field: TextField, alias: string): { from: string; where: string } {
  const table = field === "message" ? "tool_call_spans" : "tool_errors";
  if (dialect === "sqlite") {
    const fts = field === "message" ? "span_message_fts" : "told_text_fts";
    return { from: `${fts} JOIN ${table} ${alias} ON ${alias}.pk = ${fts}.rowid`, where: `${fts} MATCH @match` };
  }
  const column = PG_TEXT_COLUMNS[table];
  return { from: `${table} ${alias}`, where: `${alias}.${column} @@ to_tsquery('simple', @match)` };
}

/** The engine's query text for the terms, bound as `@match` by the SQL above. */
export function matchParam(dialect: Dialect, terms: readonly TextTerm[]): string {
  return dialect === "sqlite" ? fts5Query(terms) : tsQuery(terms);
}

/**
 * SQL selecting the run ids of a project (`@project`) whose attempt messages or told texts match
 * `@match` (see {@link matchParam}): the Runs list's text filter.
 */
export function runsMatchingTextSql(dialect: Dialect): string {
  const spans = matchSource(dialect, "message", "ts");
  const errors = matchSource(dialect, "told", "te");
  return `SELECT ts.run_id FROM ${spans.from} WHERE ${spans.where} AND ts.project_id = @project
    UNION SELECT te.run_id FROM ${errors.from} WHERE ${errors.where} AND te.project_id = @project`;
}

interface Row {
  field: TextField;
  runId: string;
  callId: string;
  tool: string;
  code: string | null;
  spanId: string | null;
  at: number;
  text: string;
  matches: number;
}

/**
 * Calls of a project whose attempt error message or told text matches the query, newest first: one
 * hit per call and field (its latest matching attempt, with how many matched), each with its
 * snippet as plain segments.
 */
export async function searchText(db: Executor, q: TextSearchQuery): Promise<TextSearchAnswer> {
  const terms = parseTextQuery(q.q);
  const params: Record<string, string | number> = { project: q.project, match: matchParam(db.dialect, terms), limit: q.limit + 1 };
  const time = (column: string) => {
    const parts: string[] = [];
    if (q.from !== undefined) parts.push(`AND ${column} >= @from`);
    if (q.to !== undefined) parts.push(`AND ${column} < @to`);
    return parts.join(" ");
  };
  if (q.from !== undefined) params.from = q.from;
  if (q.to !== undefined) params.to = q.to;
  const selects: string[] = [];
  if (q.field !== "told") {
    const m = matchSource(db.dialect, "message", "s");
    selects.push(`SELECT 'message' AS field, s.run_id, s.call_id, s.tool, s.code, s.span_id, s.started_at AS at, s.message AS text
      FROM ${m.from} WHERE ${m.where} AND s.project_id = @project ${time("s.started_at")}`);
  }
  if (q.field !== "message") {
    const m = matchSource(db.dialect, "told", "e");
    selects.push(`SELECT 'told' AS field, e.run_id, e.call_id, e.tool, e.code, NULL AS span_id, e.occurred_at AS at, e.told AS text
      FROM ${m.from} WHERE ${m.where} AND e.project_id = @project ${time("e.occurred_at")}`);
  }
  // One hit per (field, run, call): its latest row; ties broken by span id so both engines pick the same.
  const rows = await db.all<Row>(
    `WITH m AS (${selects.join(" UNION ALL ")}),
     ranked AS (
       SELECT m.*, row_number() OVER (PARTITION BY field, run_id, call_id ORDER BY at DESC, span_id DESC) AS n,
         count(*) OVER (PARTITION BY field, run_id, call_id) AS matches
       FROM m
     )
     SELECT field, run_id AS "runId", call_id AS "callId", tool, code, span_id AS "spanId", at, text, matches
     FROM ranked WHERE n = 1
     ORDER BY at DESC, field, "runId", "callId"
     LIMIT @limit`,
    params,
  );
  const page = rows.slice(0, q.limit);
  return {
    project: q.project,
    q: q.q,
    hits: page.map(({ text, ...r }) => ({ ...r, snippet: markSnippet(text, terms) })),
    runs: new Set(page.map((r) => r.runId)).size,
    truncated: rows.length > q.limit,
  };
}
