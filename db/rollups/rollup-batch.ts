import { compileRollup, type CompiledRollup, type StoredRow } from "./compile-rollup";
import type { AnyRollup, RollupTableEntry } from "./define-rollup";


/**
 * A batch's rows of one rollup, merged by key before touching the database, so a 500-span batch costs a
 * handful of upserts rather than 500. Rows are at the finest period; coarser tables are derived.
 */
export class RollupBatch<Row extends StoredRow> {
  private readonly rows = new Map<string, Row>();
  private readonly compiled: CompiledRollup;

  constructor(readonly rollup: AnyRollup & { readonly $row?: Row }) {
    this.compiled = compileRollup(rollup);
  }

  get size(): number {
    return this.rows.size;
  }

  /** Merges a row in by its declared key; the row object is kept, so pass a fresh one. */
  add(row: Row): void {
    const key = this.compiled.key(row);
    const current = this.rows.get(key);
    if (current === undefined) this.rows.set(key, row);
    else this.compiled.merge(current, row);
  }

  /**
   * The rows for one of the rollup's tables: as merged for the first (finest) table, re-keyed to
   * the table's longer period (by the declared period key) and merged where they meet for the others.
   */
  rowsFor(table: RollupTableEntry): Iterable<Row> {
    const { periodMs } = table;
    if (this.rollup.period === undefined || periodMs === undefined || periodMs === this.rollup.tableList[0]?.periodMs) return this.rows.values();
    const out = new RollupBatch<Row>(this.rollup);
    for (const row of this.rows.values()) out.add(this.compiled.coarsen(row, periodMs));
    return out.rows.values();
  }
}
