import { readFileSync } from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR, type Store } from "../client";

export interface Health {
  database: "ok";
  migrations: { applied: number; expected: number };
}

/** Checks that the database answers and every committed migration is applied. */
export function getHealth(store: Store): Health {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  const row = store.sqlite.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
  return { database: "ok", migrations: { applied: row.n, expected: journal.entries.length } };
}
