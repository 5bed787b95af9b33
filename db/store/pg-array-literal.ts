import { escapeLiteral } from "pg";

/**
 * A JavaScript array as PostgreSQL's array literal text (`{"a","b",NULL}`), exactly as node-postgres
 * writes it (`prepareValue` in pg/lib/utils.js: every element quoted, `\` and `"` escaped, null and
 * undefined as NULL), or null when an element is of a type this does not cover (a Date, a Buffer,
 * an object), which the caller then leaves to node-postgres. The ingest statements send one array
 * per column of a batch (`unnest`); node-postgres ran two regular-expression replacements on every
 * element, which cost about 3× this for a 100-row batch.
 */
export function pgArrayLiteral(values: readonly unknown[]): string | null {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ",";
    if (v === null || v === undefined) out += "NULL";
    else if (typeof v === "string") out += v.indexOf('"') < 0 && v.indexOf("\\") < 0 ? `"${v}"` : `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
    else if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") out += `"${String(v)}"`;
    else if (Array.isArray(v)) {
      const inner = pgArrayLiteral(v);
      if (inner === null) return null;
      out += inner;
    } else return null;
  }
  return `${out}}`;
}

/** Statement parameters with every array already written as its literal (see `pgArrayLiteral`). */
export function withArrayLiterals(values: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = Array.isArray(v) ? (pgArrayLiteral(v) ?? v) : v;
  }
  return out;
}

/**
 * An array of texts as a quoted SQL constant (`'{"a","b"}'`, escaped as node-postgres' `escapeLiteral`
 * does), for a statement sent with its values written in: one that travels in another's round trip.
 */
export function pgTextArraySql(values: readonly string[]): string {
  return escapeLiteral(pgArrayLiteral(values)!);
}
