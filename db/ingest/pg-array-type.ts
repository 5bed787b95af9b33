import type { Column } from "drizzle-orm";

/**
 * The PostgreSQL array type a column's values are sent as in a multi-row `unnest` statement. The
 * schema is declared once (Drizzle's SQLite columns); integers and 0/1 flags are `bigint` on
 * PostgreSQL, texts `text`, hex bytes (`hexBytes`) `bytea`.
 */
export function pgArrayType(column: Column): string {
  switch (column.columnType) {
    case "SQLiteText":
      return "text[]";
    case "SQLiteInteger":
    case "SQLiteBoolean":
    case "SQLiteTimestamp":
      return "bigint[]";
    case "SQLiteCustomColumn":
      if (column.getSQLType() === "blob") return "bytea[]";
      throw new Error(`column ${column.name}: no PostgreSQL array type for ${column.getSQLType()}`);
    default:
      throw new Error(`column ${column.name}: no PostgreSQL array type for ${column.columnType}`);
  }
}
