import type Database from "better-sqlite3";
import type { SpanRow } from "@/lib/ingest/rows";
import type { PgTx } from "../store/types";
import { queryNamed } from "./pg-named";

/** A span as stored: its emitter's values replaced by the id of their `span_emitters` row. */
export type StoredSpanRow = SpanRow & { emitterId: number };

type Values = [string | null, string | null, string | null, string | null, string | null, string | null, string];

/** The values of a span's `span_emitters` row, in the order of its key. */
const valuesOf = (r: SpanRow): Values => [r.toolVersion, r.release, r.service, r.environment, r.sdkName, r.sdkVersion, r.source];

const sameEmitter = (a: SpanRow, b: SpanRow): boolean =>
  a.toolVersion === b.toolVersion &&
  a.release === b.release &&
  a.service === b.service &&
  a.environment === b.environment &&
  a.sdkName === b.sdkName &&
  a.sdkVersion === b.sdkVersion &&
  a.source === b.source;

/**
 * Per connection (SQLite) or pool (PostgreSQL), per project: dictionary key → id, holding only ids of
 * committed rows (`publish` runs after the batch's transaction commits), so a rolled-back batch never
 * leaves an id here whose row is gone. Rows are never deleted, so a committed id stays valid; another
 * node's rows for the same values arrive through the database's unique key, never through this map.
 */
const known = new WeakMap<object, Map<string, Map<string, number>>>();

function projectIds(owner: object, projectId: string): Map<string, number> {
  let projects = known.get(owner);
  if (!projects) known.set(owner, (projects = new Map()));
  let ids = projects.get(projectId);
  if (!ids) projects.set(projectId, (ids = new Map()));
  return ids;
}

/**
 * Sets `emitterId` on each span from the known ids; spans of emitters not known yet are set by
 * `resolve` (an id per missing key). Consecutive spans of one emitter (nearly every batch) cost
 * seven comparisons each; a new emitter costs one JSON key.
 */
function plan(owner: object, projectId: string, spans: readonly { row: SpanRow }[], resolve: (missing: Map<string, Values>) => Map<string, number>): StoredSpanRow[];
function plan(owner: object, projectId: string, spans: readonly { row: SpanRow }[], resolve: (missing: Map<string, Values>) => Promise<Map<string, number>>): Promise<StoredSpanRow[]>;
function plan(
  owner: object,
  projectId: string,
  spans: readonly { row: SpanRow }[],
  resolve: (missing: Map<string, Values>) => Map<string, number> | Promise<Map<string, number>>,
): StoredSpanRow[] | Promise<StoredSpanRow[]> {
  const ids = projectIds(owner, projectId);
  const rows = spans.map((s) => s.row as StoredSpanRow);
  const keys: (string | null)[] = new Array(rows.length).fill(null);
  const missing = new Map<string, Values>();
  let previous: StoredSpanRow | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (previous !== undefined && sameEmitter(previous, row)) {
      if (keys[i - 1] === null) row.emitterId = previous.emitterId;
      else keys[i] = keys[i - 1]!;
    } else {
      const values = valuesOf(row);
      const key = JSON.stringify(values);
      const id = ids.get(key);
      if (id !== undefined) row.emitterId = id;
      else {
        keys[i] = key;
        if (!missing.has(key)) missing.set(key, values);
      }
    }
    previous = row;
  }
  if (missing.size === 0) return rows;
  const fill = (found: Map<string, number>): StoredSpanRow[] => {
    for (let i = 0; i < rows.length; i++) {
      const key = keys[i];
      if (key === null || key === undefined) continue;
      const id = found.get(key);
      if (id === undefined) throw new Error(`span_emitters returned no id for ${key}`);
      rows[i]!.emitterId = id;
    }
    return rows;
  };
  const found = resolve(new Map([...missing].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  return found instanceof Map ? fill(found) : found.then(fill);
}

/** Ids learned inside a transaction, added to the known ids once it commits. */
export class LearnedEmitters {
  private readonly found: [string, string, number][] = [];
  constructor(private readonly owner: object) {}
  add(projectId: string, ids: Map<string, number>): void {
    for (const [key, id] of ids) this.found.push([projectId, key, id]);
  }
  /** Call after the transaction committed. */
  publish(): void {
    for (const [projectId, key, id] of this.found) projectIds(this.owner, projectId).set(key, id);
  }
}

const INSERT_COLUMNS = "project_id, key, tool_version, release, service, environment, sdk_name, sdk_version, source";

const sqliteStatements = new WeakMap<Database.Database, { select: Database.Statement; insert: Database.Statement }>();

/**
 * SQLite, inside the batch's transaction: the batch's spans with their emitter ids, looking up or
 * inserting the emitters not known yet (one writer: no other transaction can insert them meanwhile).
 */
export function emitterIdsSqlite(sqlite: Database.Database, projectId: string, spans: readonly { row: SpanRow }[], learned: LearnedEmitters): StoredSpanRow[] {
  return plan(sqlite, projectId, spans, (missing) => {
    let st = sqliteStatements.get(sqlite);
    if (!st) {
      st = {
        select: sqlite.prepare("SELECT id FROM span_emitters WHERE project_id = ? AND key = ?").pluck(),
        insert: sqlite.prepare(`INSERT INTO span_emitters (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`).pluck(),
      };
      sqliteStatements.set(sqlite, st);
    }
    const found = new Map<string, number>();
    for (const [key, values] of missing) {
      const id = (st.select.get(projectId, key) ?? st.insert.get(projectId, key, ...values)) as number;
      found.set(key, id);
    }
    learned.add(projectId, found);
    return found;
  });
}

/**
 * PostgreSQL, first in the batch's transaction: the batch's spans with their emitter ids. Emitters
 * not known to this process are upserted in key order and their ids returned, whether this batch
 * inserted them or another node did: the upsert waits for a concurrent insert of the same key to
 * commit, then takes its row. Only the batch's run and call locks (taken with BEGIN) are held by then,
 * and a batch holding an emitter row holds all of its own already, so that wait cannot close a cycle.
 */
export function emitterIdsPg(tx: PgTx, owner: object, projectId: string, spans: readonly { row: SpanRow }[], learned: LearnedEmitters): Promise<StoredSpanRow[]> {
  return plan(owner, projectId, spans, async (missing) => {
    const columns: (string | null)[][] = [[...missing.keys()], [], [], [], [], [], [], []];
    for (const values of missing.values()) values.forEach((v, i) => columns[i + 1]!.push(v));
    const rows = await queryNamed<{ id: string | number; key: string }>(
      tx,
      `INSERT INTO span_emitters (${INSERT_COLUMNS})
       SELECT $1, k, tv, rel, svc, env, sdk, sdkv, src FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
         WITH ORDINALITY AS u(k, tv, rel, svc, env, sdk, sdkv, src, ord) ORDER BY ord
       ON CONFLICT (project_id, key) DO UPDATE SET key = excluded.key RETURNING id, key`,
      [projectId, ...columns],
    );
    const found = new Map(rows.map((r) => [r.key, Number(r.id)]));
    learned.add(projectId, found);
    return found;
  });
}
