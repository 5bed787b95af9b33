import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPgStore, openSqliteStore } from "@/db/client";
import { describeOpenFailure } from "@/db/store/storage-faults";
import { TEST_PG_URL } from "@/test/helpers/stores";

// The line a start that cannot open its database stops with, from what the real drivers throw.

const dir = mkdtempSync(path.join(tmpdir(), "fl-open-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function failureOf(open: () => unknown): Promise<unknown> {
  try {
    await open();
  } catch (error) {
    return error;
  }
  throw new Error("opened");
}

describe("the open failure line", () => {
  it("names the SQLite file that cannot be opened and the variable that chooses it", async () => {
    const error = await failureOf(() => openSqliteStore(dir));
    expect(describeOpenFailure(dir, error)).toBe(
      `the database file ${dir} cannot be opened or created (SQLITE_CANTOPEN); check that its folder exists and is writable, or set FAULTLINE_DB_PATH to a writable path`,
    );
  });

  it("names a SQLite file locked by another process", () => {
    const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    expect(describeOpenFailure("/data/f.db", busy)).toBe("the database file /data/f.db is locked by another process (SQLITE_BUSY); stop it or raise FAULTLINE_BUSY_TIMEOUT_MS");
  });

  it("falls back to the driver's first line, for either engine", () => {
    const odd = new Error("something odd\nstack");
    expect(describeOpenFailure("/data/f.db", odd)).toBe("opening the database file /data/f.db failed: something odd; check FAULTLINE_DB_PATH");
    expect(describeOpenFailure("postgres://u:***@h/db", odd)).toBe("opening PostgreSQL at postgres://u:***@h/db failed: something odd; check FAULTLINE_DATABASE_URL");
  });

  it.skipIf(!TEST_PG_URL)("says which PostgreSQL database or role was refused, and when the server cannot be reached", async () => {
    const missing = new URL(TEST_PG_URL!);
    missing.pathname = `/fl_missing_${process.pid}`;
    const refused = await failureOf(() => openPgStore(missing.toString(), { poolMax: 1 }));
    expect(describeOpenFailure("postgres://x/db", refused)).toBe(
      "PostgreSQL at postgres://x/db refused the database or the role (3D000); check the database name, user and password in FAULTLINE_DATABASE_URL",
    );
    const closed = new URL(TEST_PG_URL!);
    closed.port = "1";
    const down = await failureOf(() => openPgStore(closed.toString(), { poolMax: 1 }));
    expect(describeOpenFailure("postgres://x/db", down)).toBe("PostgreSQL at postgres://x/db cannot be reached (ECONNREFUSED); check that it is running and reachable from this node");
  });
});
