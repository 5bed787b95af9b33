import { RUN_FACETS_MAX, RUNS_MATCHED_MAX, type ListRunsQuery, type RunFacets, type RunListItem, type RunListResponse, type RunSort } from "@/lib/contracts/runs";
import { parseTextQuery } from "@/lib/contracts/text-query";
import type { Executor } from "../client";
import { matchParam, runsMatchingTextSql } from "./text-search";

/** A run's counters with its record, if one arrived (LEFT JOIN: every record column may be null). */
interface Row {
  run_id: string;
  attempts: number;
  retries: number;
  failed_attempts: number;
  declined: number;
  refused: number;
  errors: number;
  first_started_at: number;
  last_ended_at: number;
  record_id: string | null;
  agent: string | null;
  release: string | null;
  state: string | null;
  started_at: number | null;
  ended_at: number | null;
  unanswered_tool_uses: number | null;
  sort_value: number;
}

// Unknown durations sort last in both directions: a sentinel beyond any real value on that side.
const NULL_LAST = { asc: 8_000_000_000_000_000, desc: -8_000_000_000_000_000 } as const;
// Beyond both sentinels, still inside a signed 64-bit integer.
const CURSOR_BOUND = 9_000_000_000_000_000_000;

/**
 * The SQL value each order sorts on. Counters are `run_stats` columns; the duration mirrors
 * {@link toItem} (the record's end − start, else the attempts' span), with unknown durations last.
 */
function sortExpression(sort: RunSort, dir: "asc" | "desc"): string {
  switch (sort) {
    case "start":
      return "s.first_started_at";
    case "duration":
      return `COALESCE(CASE WHEN r.record_id IS NULL THEN s.last_ended_at - s.first_started_at ELSE r.ended_at - r.started_at END, ${NULL_LAST[dir]})`;
    case "attempts":
      return "s.attempts";
    case "retries":
      return "s.retries";
    case "errors":
      return "s.errors";
    case "failedAttempts":
      return "s.failed_attempts";
    case "toolCalls":
      // run_stats counts first attempts; the page shows distinct call ids, equal unless attempt 1 never arrived.
      return "s.calls";
  }
}

/** `<sort value>:<run_id>` of the last row of a page; ordering is (sort value, run_id) in the page's direction. */
function parseCursor(cursor: string): { value: number; runId: string } {
  const colon = cursor.indexOf(":");
  // Every sort value lies within the sentinels, so clamping a forged value beyond them keeps its
  // meaning and keeps it a valid bigint for PostgreSQL.
  const value = Math.min(CURSOR_BOUND, Math.max(-CURSOR_BOUND, Number(cursor.slice(0, colon))));
  return { value, runId: cursor.slice(colon + 1) };
}

/**
 * Every distinct value of a column that follows project_id in a table's key, by one index seek per
 * value (a recursive "next larger value" walk): the names are few, the rows behind them many.
 */
const distinctSql = (table: string, column: string) => `
  WITH RECURSIVE d(v) AS (
    SELECT (SELECT min(${column}) FROM ${table} WHERE project_id = @project)
    UNION ALL
    SELECT (SELECT min(${column}) FROM ${table} WHERE project_id = @project AND ${column} > d.v) FROM d WHERE d.v IS NOT NULL
  ) SELECT v FROM d WHERE v IS NOT NULL`;

/**
 * The project's names containing `text`, ignoring case. Matched here rather than with LIKE so that
 * both engines agree (SQLite's LIKE folds ASCII only, PostgreSQL's ILIKE all of Unicode).
 */
async function namesContaining(db: Executor, table: string, column: string, project: string, text: string): Promise<string[]> {
  const needle = text.toLowerCase();
  const rows = await db.all<{ v: string }>(distinctSql(table, column), { project });
  return rows.map((r) => r.v).filter((v) => v.toLowerCase().includes(needle));
}

/**
 * Ends a correlated EXISTS that must run once per outer row, stopping at its first match. PostgreSQL
 * would otherwise hash the whole subquery first (it plans for every run of the project, not for the
 * page the LIMIT asks for): 0.3–7 s for a busy code at 10M spans. An OFFSET keeps its planner from
 * rewriting the EXISTS; to SQLite, which always probes per row, the clause changes nothing.
 */
const PER_ROW = "LIMIT 1 OFFSET 0";

/** Rows counted at most before a filter counts as common: the bounded count costs one short index range. */
const COMMON_ROWS = 20_000;
/** Below this many rows, a filter's runs are collected first: fewer lookups than any walk. */
const FEW_ROWS = 1_000;

/** How many index rows a tool or code filter selects: few, some, or common (COMMON_ROWS or more). */
type Frequency = "few" | "some" | "common";

/** The frequency of the rows `sql` selects, counted up to COMMON_ROWS. */
async function frequencyOf(db: Executor, sql: string, params: Record<string, string | number>): Promise<Frequency> {
  const row = await db.get<{ n: number }>(`SELECT count(*) AS n FROM (${sql} LIMIT ${COMMON_ROWS}) c`, params);
  const n = Number(row?.n ?? 0);
  return n >= COMMON_ROWS ? "common" : n < FEW_ROWS ? "few" : "some";
}

/**
 * The condition a tool or code filter puts on run `s`, by the filter's frequency (neither engine's
 * statistics know which names are busy, and on SQLite there are none). `runs` selects the filter's run
 * ids, `probe` is the same for run `s` alone. Few runs: collected first (IN), one lookup each. Common:
 * walk the runs in list order and probe each (EXISTS), which stops after a page (collecting a busy
 * tool's million runs first took 2 s at 10M spans). In between: collected once into a hashed set that
 * the walk tests without a lookup. Under OR, PostgreSQL keeps that IN as a hashed filter rather than
 * turning it into a join, which it may then walk with parallel workers: each overran the page by 10x
 * (37,000 runs walked for 50 rows at 1M spans).
 */
function runFilter(frequency: Frequency, runs: string, probe: string): string {
  if (frequency === "common") return `EXISTS (${probe} ${PER_ROW})`;
  if (frequency === "some") return `(s.run_id IN (${runs}) OR FALSE)`;
  return `s.run_id IN (${runs})`;
}

/** `name IN (@p0, @p1, …)` for a list of values, adding them to `params`. */
function inList(params: Record<string, string | number>, prefix: string, values: readonly string[]): string {
  const names = values.map((v, i) => {
    params[`${prefix}${i}`] = v;
    return `@${prefix}${i}`;
  });
  return `(${names.join(", ")})`;
}

// A run's agent and release: its record's, else those its spans and errors named at ingest (a run
// known only from kit ToolCallSpan records has no record, yet every record names its agent).
const AGENT = "coalesce(r.agent, nullif(s.agent, ''))";
const RELEASE = "coalesce(r.release, nullif(s.release, ''))";

/**
 * Runs in the asked order (newest first by default) from the ingest-maintained `run_stats` counters,
 * so that runs whose record never arrived still appear. Pagination is keyset on (sort value, run id)
 * for every order, so a page never repeats or skips a run while new runs arrive. A tool filter goes
 * through `run_tools` (one row per run and tool), a code filter through `run_codes` (one row per run,
 * code and tool its spans and final errors met); both match any tool or code containing
 * the text, ignoring case (the matching names are found first among the project's few distinct
 * names; the indexes do the rest).
 */
export async function listRuns(db: Executor, q: ListRunsQuery): Promise<RunListResponse> {
  const [tools, codes] = await Promise.all([
    q.tool === undefined ? undefined : namesContaining(db, "run_tools", "tool", q.project, q.tool),
    q.code === undefined ? undefined : namesContaining(db, "codes", "code", q.project, q.code),
  ]);
  // A filter that names nothing the project has matches no run.
  if (tools?.length === 0 || codes?.length === 0) return { runs: [], nextCursor: null, matched: 0, matchedCapped: false };
  const where: string[] = ["s.project_id = @project"];
  const params: Record<string, string | number> = { project: q.project, limit: q.limit + 1 };
  if (q.agent !== undefined) {
    where.push(`${AGENT} = @agent`);
    params.agent = q.agent;
  }
  if (q.release !== undefined) {
    where.push(`${RELEASE} = @release`);
    params.release = q.release;
  }
  if (q.environment !== undefined) {
    where.push("r.environment = @environment");
    params.environment = q.environment;
  }
  if (q.state === "missing") where.push("r.run_id IS NULL");
  else if (q.state !== undefined) {
    where.push("r.state = @state");
    params.state = q.state;
  }
  if (q.from !== undefined) {
    where.push("s.first_started_at >= @from");
    params.from = q.from;
  }
  if (q.to !== undefined) {
    where.push("s.first_started_at < @to");
    params.to = q.to;
  }
  if (q.hasErrors === "1") where.push("(s.failed_attempts > 0 OR s.errors > 0)");
  if (q.hasErrors === "0") where.push("s.failed_attempts = 0 AND s.errors = 0");
  // Few runs leave a tool call unanswered: collect them through the partial index first.
  if (q.text !== undefined) {
    where.push(`s.run_id IN (${runsMatchingTextSql(db.dialect)})`);
    params.match = matchParam(db.dialect, parseTextQuery(q.text));
  }
  if (q.unanswered === "1") where.push("s.run_id IN (SELECT run_id FROM runs WHERE project_id = @project AND unanswered_tool_uses > 0)");
  // The matching names as literals, so the run lookups go through their (project, tool|code, …)
  // keys with IN.
  const toolIn = tools ? `tool IN ${inList(params, "tool", tools)}` : "";
  const codeIn = codes ? `code IN ${inList(params, "code", codes)}` : "";
  // Filters other than project, tool and code (a count can skip run_stats only without them).
  const narrowed = where.length > 1;
  let countRuns: string | null = null;
  if (tools) {
    const runs = `SELECT run_id FROM run_tools WHERE project_id = @project AND ${toolIn}`;
    const frequency = await frequencyOf(db, runs, params);
    where.push(runFilter(frequency, runs, `SELECT 1 FROM run_tools t WHERE t.project_id = s.project_id AND t.${toolIn} AND t.run_id = s.run_id`));
    if (!narrowed && !codes && (frequency !== "common" || tools.length === 1)) countRuns = runs;
  }
  if (codes) {
    const toolAnd = tools ? `AND c.${toolIn}` : "";
    const runs = `SELECT c.run_id FROM run_codes c WHERE c.project_id = @project AND c.${codeIn} ${toolAnd}`;
    const frequency = await frequencyOf(db, runs, params);
    where.push(runFilter(frequency, runs, `SELECT 1 FROM run_codes c WHERE c.project_id = s.project_id AND c.${codeIn} AND c.run_id = s.run_id ${toolAnd}`));
    if (!narrowed && !tools && (frequency !== "common" || codes.length === 1)) countRuns = runs;
  }
  // Every page says how many runs its filters match, counted before the cursor narrows them.
  const matchedWhere = where.join(" AND ");
  const sortBy = sortExpression(q.sort, q.dir);
  const cmp = q.dir === "desc" ? "<" : ">";
  if (q.cursor !== undefined) {
    const c = parseCursor(q.cursor);
    where.push(`(${sortBy} ${cmp} @cValue OR (${sortBy} = @cValue AND s.run_id ${cmp} @cRun))`);
    params.cValue = c.value;
    params.cRun = c.runId;
  }
  const dir = q.dir === "desc" ? "DESC" : "ASC";
  // (sort value, run id) is unique per project: the order is total, on both engines alike.
  const rows = await db.all<Row>(
    `SELECT s.run_id, s.attempts, s.retries, s.failed_attempts, s.declined, s.refused, s.errors,
       s.first_started_at, s.last_ended_at, r.record_id, ${AGENT} AS agent, ${RELEASE} AS release, r.state, r.started_at, r.ended_at,
       r.unanswered_tool_uses,
       ${sortBy} AS sort_value
     FROM run_stats s LEFT JOIN runs r ON r.project_id = s.project_id AND r.run_id = s.run_id
     WHERE ${where.join(" AND ")}
     ORDER BY sort_value ${dir}, s.run_id ${dir}
     LIMIT @limit`,
    params,
  );
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const [calls, matched] = await Promise.all([distinctCalls(db, q.project, page), countMatched(db, countRuns ?? matchedWhere, countRuns !== null, params)]);
  return {
    runs: page.map((r) => ({ ...toItem(r), toolCalls: calls.get(r.run_id) ?? 0 })),
    nextCursor: rows.length > q.limit && last ? `${last.sort_value}:${last.run_id}` : null,
    matched: Math.min(matched, RUNS_MATCHED_MAX),
    matchedCapped: matched > RUNS_MATCHED_MAX,
  };
}

/**
 * Runs matching the filters, counted up to one past RUNS_MATCHED_MAX: the count walks the same
 * indexes as the page, and the bound keeps a project with millions of runs from counting them all.
 * When a tool or code is the only filter, `runs` selects the matching run ids from its run index
 * (every run there has its counters row): grouped in key order, one name's ids stream from one short
 * index range and the count stops at the bound, where walking run_stats for them took ~1,000 / (share
 * of runs matching) rows, at any size. Several names are grouped only when they are rare (bounded).
 */
async function countMatched(db: Executor, where: string, runIndex: boolean, params: Record<string, string | number>): Promise<number> {
  const { limit: _limit, cValue: _v, cRun: _r, ...rest } = params;
  const matching = runIndex
    ? `${where} GROUP BY run_id`
    : `SELECT 1 FROM run_stats s LEFT JOIN runs r ON r.project_id = s.project_id AND r.run_id = s.run_id WHERE ${where}`;
  const row = await db.get<{ n: number }>(`SELECT count(*) AS n FROM (${matching} LIMIT ${RUNS_MATCHED_MAX + 1}) m`, rest);
  return Number(row?.n ?? 0);
}

/**
 * The values the runs list's text filters take in a project, for the filter suggestions: agents and
 * releases as the list shows them (the record's, else the spans'), environments of run records, tools
 * from the run→tool index, codes from the codes catalogue.
 */
export async function listRunFacets(db: Executor, project: string): Promise<RunFacets> {
  const take = async (sql: string) => (await db.all<{ v: string }>(`${sql} LIMIT ?`, [project, RUN_FACETS_MAX + 1])).map((r) => r.v);
  const [agents, releases, environments, tools, codes] = await Promise.all([
    take(`SELECT DISTINCT ${AGENT} AS v FROM run_stats s LEFT JOIN runs r ON r.project_id = s.project_id AND r.run_id = s.run_id
      WHERE s.project_id = ? AND ${AGENT} <> '' ORDER BY v`),
    take(`SELECT DISTINCT ${RELEASE} AS v FROM run_stats s LEFT JOIN runs r ON r.project_id = s.project_id AND r.run_id = s.run_id
      WHERE s.project_id = ? AND ${RELEASE} <> '' ORDER BY v`),
    take("SELECT DISTINCT environment AS v FROM runs WHERE project_id = ? AND environment IS NOT NULL AND environment <> '' ORDER BY v"),
    take("SELECT DISTINCT tool AS v FROM run_tools WHERE project_id = ? ORDER BY v"),
    take("SELECT DISTINCT code AS v FROM codes WHERE project_id = ? AND code <> '' ORDER BY v"),
  ]);
  const unanswered = await db.get<{ n: number }>("SELECT count(*) AS n FROM runs WHERE project_id = ? AND unanswered_tool_uses > 0", [project]);
  const lists = [agents, releases, environments, tools, codes];
  return {
    agents: agents.slice(0, RUN_FACETS_MAX),
    releases: releases.slice(0, RUN_FACETS_MAX),
    environments: environments.slice(0, RUN_FACETS_MAX),
    tools: tools.slice(0, RUN_FACETS_MAX),
    codes: codes.slice(0, RUN_FACETS_MAX),
    truncated: lists.some((l) => l.length > RUN_FACETS_MAX),
    unansweredRuns: Number(unanswered?.n ?? 0),
  };
}

/**
 * Tool calls per run of one page, counted as distinct call ids: exact even when a call's first
 * attempt never arrived or a source carries no attempt numbers (run_stats only counts attempt 1).
 * On PostgreSQL the read is bounded by the page's run counters (every span of a run starts within
 * its `first_started_at`..`last_ended_at`), so it touches the partitions of the page's days only,
 * not every day kept, the days ahead and the default (see get-run-timeline.ts).
 */
async function distinctCalls(db: Executor, project: string, page: Pick<Row, "run_id" | "first_started_at" | "last_ended_at">[]): Promise<Map<string, number>> {
  if (page.length === 0) return new Map();
  const args: (string | number)[] = [project, ...page.map((r) => r.run_id)];
  let times = "";
  if (db.dialect === "postgres") {
    times = " AND started_at >= ? AND started_at <= ?";
    args.push(Math.min(...page.map((r) => Number(r.first_started_at))), Math.max(...page.map((r) => Number(r.last_ended_at))));
  }
  const rows = await db.all<{ runId: string; n: number }>(
    `SELECT run_id AS "runId", count(DISTINCT call_id) AS n FROM tool_call_spans
     WHERE project_id = ? AND run_id IN (${page.map(() => "?").join(", ")})${times} GROUP BY run_id`,
    args,
  );
  return new Map(rows.map((r) => [r.runId, r.n]));
}

function toItem(r: Row): Omit<RunListItem, "toolCalls"> {
  // A stored record may still lack agent and start (a run end alone): those are unknown, not missing.
  const hasRecord = r.record_id !== null;
  const startedAt = hasRecord ? r.started_at : r.first_started_at;
  const endedAt = hasRecord ? r.ended_at : r.last_ended_at;
  return {
    runId: r.run_id,
    hasRunRecord: hasRecord,
    agent: r.agent,
    release: r.release,
    state: r.state,
    startedAt,
    endedAt,
    durationMs: endedAt === null || startedAt === null ? null : endedAt - startedAt,
    attempts: r.attempts,
    retries: r.retries,
    failedAttempts: r.failed_attempts,
    errors: r.errors,
    declined: r.declined,
    refused: r.refused,
    unansweredToolUses: r.unanswered_tool_uses,
  };
}
