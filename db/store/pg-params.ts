import { bindValue } from "./bind-value";
import type { SqlParams } from "./types";

interface Compiled {
  text: string;
  /** Named placeholders in `$n` order, or null when the text uses positional `?`. */
  names: string[] | null;
}

const cache = new Map<string, Compiled>();

/**
 * Rewrites `@name` and `?` placeholders (the better-sqlite3 forms every `db/` query is written in)
 * into PostgreSQL's `$n`, skipping string literals, quoted identifiers and comments. A name used
 * twice becomes one `$n`. Cached per text: queries are a fixed set of strings.
 */
export function compilePg(sql: string): Compiled {
  const hit = cache.get(sql);
  if (hit) return hit;
  let out = "";
  const names: string[] = [];
  let positional = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "@" && /[A-Za-z_]/.test(sql[i + 1] ?? "")) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))!;
      const name = match[0];
      let n = names.indexOf(name);
      if (n === -1) n = names.push(name) - 1;
      out += `$${n + 1}`;
      i += 1 + name.length;
    } else if (c === "?") {
      out += `$${++positional}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  if (names.length > 0 && positional > 0) throw new Error("a statement mixes @name and ? placeholders");
  const compiled = { text: out, names: names.length > 0 ? names : null };
  cache.set(sql, compiled);
  return compiled;
}

function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

/** The `$n` values of a compiled statement, in order. */
export function pgValues(compiled: Compiled, params: SqlParams | undefined): unknown[] {
  if (params === undefined) return [];
  if (compiled.names === null) return (params as readonly unknown[]).map(bindValue);
  const named = params as Readonly<Record<string, unknown>>;
  return compiled.names.map((name) => {
    if (!(name in named)) throw new Error(`missing named parameter @${name}`);
    return bindValue(named[name]);
  });
}
