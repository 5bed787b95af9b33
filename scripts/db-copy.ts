// `npm run db:copy -- --to postgres://… [--from path/to/faultline.db]`: moves an existing SQLite
// database (FAULTLINE_DB_PATH, or ./data/faultline.db) into an empty PostgreSQL database.
import { existsSync } from "node:fs";
import { openPgStore, openSqliteStore } from "../db/client";
import { copyToPostgres, TargetNotEmptyError, type CopyProgress } from "../db/copy/copy-to-postgres";
import { redactDatabaseUrl } from "../lib/database-url";
import { ConfigError, config } from "../server/config";

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function fail(message: string, code = 1): never {
  console.error(`db:copy: ${message}`);
  process.exit(code);
}

let from = argument("--from");
const to = argument("--to");
if (!to || !/^postgres(ql)?:\/\//i.test(to)) fail("usage: npm run db:copy -- --to postgres://user:password@host:5432/db [--from faultline.db]", 2);
try {
  from ??= config().dbPath;
} catch (error) {
  if (error instanceof ConfigError) fail(error.message, 2);
  throw error;
}
if (!existsSync(from)) fail(`no SQLite database at ${from} (set --from or FAULTLINE_DB_PATH)`, 2);

// One line per table, redrawn in place on a terminal; plain lines when piped to a log.
const tty = process.stderr.isTTY;
function progress(p: CopyProgress): void {
  const width = 30;
  const share = p.total === 0 ? 1 : p.copied / p.total;
  const filled = Math.round(share * width);
  const line = `${p.table.padEnd(24)} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${p.copied}/${p.total}`;
  if (tty) process.stderr.write(`\r${line}${p.copied === p.total ? "\n" : ""}`);
  else if (p.copied === p.total) process.stderr.write(`${line}\n`);
}

const source = openSqliteStore(from);
const target = await openPgStore(to, { poolMax: 2 });
try {
  console.error(`copying ${from} into ${redactDatabaseUrl(to)}`);
  const counts = await copyToPostgres(source, target, progress);
  const wrong = counts.filter((c) => c.source !== c.target);
  for (const c of counts) console.log(`${c.table.padEnd(24)} ${String(c.source).padStart(10)} → ${String(c.target).padStart(10)}${c.source === c.target ? "" : "  MISMATCH"}`);
  if (wrong.length > 0) fail(`row counts differ for ${wrong.map((c) => c.table).join(", ")}`);
  console.log("done: every table's row count matches. Point FAULTLINE_DATABASE_URL at the target and start the nodes.");
} catch (error) {
  if (error instanceof TargetNotEmptyError) fail(error.message, 3);
  throw error;
} finally {
  await source.close();
  await target.close();
}
