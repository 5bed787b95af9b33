import type Database from "better-sqlite3";

const cache = new WeakMap<Database.Database, Map<string, Database.Statement<unknown[], unknown>>>();

/** A statement prepared once per connection and SQL text (the text fixes the row shape). */
export function prepared<Row, Params extends unknown[] = unknown[]>(sqlite: Database.Database, sql: string): Database.Statement<Params, Row> {
  let byText = cache.get(sqlite);
  if (!byText) cache.set(sqlite, (byText = new Map()));
  const hit = byText.get(sql);
  if (hit) return hit as Database.Statement<Params, Row>;
  const st = sqlite.prepare<Params, Row>(sql);
  byText.set(sql, st as Database.Statement<unknown[], unknown>);
  return st;
}
