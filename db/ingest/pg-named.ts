import { createHash } from "node:crypto";
import { withArrayLiterals } from "../store/pg-array-literal";
import type { PgTx, Tx } from "../store/types";

const names = new Map<string, string>();

/** The open transaction as PostgreSQL's, for the PostgreSQL-only ingest statements. */
export function pgTx(tx: Tx): PgTx {
  if (tx.dialect !== "postgres") throw new Error("a PostgreSQL ingest statement ran in a SQLite transaction");
  return tx;
}

/**
 * Runs a `$n` statement as a named prepared statement of the transaction's connection: parsed and
 * planned once per connection rather than per batch. The ingest statements are a few fixed texts,
 * and planning a many-table upsert cost more than running it for small batches. Array parameters
 * (one per column of a batch) are written as literals here, the cheaper way (see `pgArrayLiteral`).
 */
export async function queryNamed<Row>(tx: PgTx, text: string, values: readonly unknown[]): Promise<Row[]> {
  let name = names.get(text);
  if (name === undefined) names.set(text, (name = `faultline_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`));
  const result = await tx.client.query({ name, text, values: withArrayLiterals(values) });
  return result.rows as Row[];
}
