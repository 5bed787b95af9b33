import { describe, expect, it } from "vitest";
import { openPgStore } from "@/db/client";
import { describeStorageFault, isDatabaseError, storageErrorCode, storageFaultKind } from "@/server/storage-fault";
import { freePort } from "../../helpers/server";
import { TEST_PG_URL } from "../../helpers/stores";

/** What node-postgres throws for a server error: a SQLSTATE and a severity. */
const pgError = (code: string) => Object.assign(new Error(`error ${code}`), { code, severity: "ERROR" });

describe("PostgreSQL errors as storage faults", () => {
  it.each([
    ["XX001", "corrupt"],
    ["25006", "read_only"],
    ["53100", "full"],
    ["58030", "io_error"],
    ["3D000", "cannot_open"],
    ["28P01", "cannot_open"],
    ["08006", "unreachable"],
    ["57P01", "unreachable"],
    ["53300", "busy"],
    ["55P03", "busy"],
    ["23505", null],
    ["42P01", null],
  ] as const)("SQLSTATE %s is %s", (code, kind) => {
    expect(isDatabaseError(pgError(code))).toBe(true);
    expect(storageFaultKind(pgError(code))).toBe(kind);
  });

  it("tells a server out of reach from a client that hung up", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    expect([isDatabaseError(refused), storageFaultKind(refused)]).toEqual([true, "unreachable"]);
    const lost = new Error("Connection terminated unexpectedly");
    expect([isDatabaseError(lost), storageFaultKind(lost)]).toEqual([true, "unreachable"]);
    // A request body whose client went away: not the database's state.
    const reset = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    expect(isDatabaseError(reset)).toBe(false);
    // An errno is not a SQLSTATE even though it is five capitals.
    const perm = Object.assign(new Error("EPERM"), { code: "EPERM" });
    expect(isDatabaseError(perm)).toBe(false);
  });

  it("words the fault for the server, without the password", () => {
    expect(describeStorageFault("unreachable", "postgres://fl:***@db.internal:5432/faultline", "ECONNREFUSED")).toBe(
      "PostgreSQL at postgres://fl:***@db.internal:5432/faultline cannot be reached (ECONNREFUSED); check that it is running and reachable from this node",
    );
  });

  it("classifies what a real connection attempt to nothing answers", async () => {
    const port = await freePort();
    const error = await openPgStore(`postgres://fl:pw@127.0.0.1:${port}/none`, { poolMax: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(storageErrorCode(error)).toBe("ECONNREFUSED");
    expect(storageFaultKind(error)).toBe("unreachable");
  });

  it.skipIf(!TEST_PG_URL)("classifies a database that does not exist", async () => {
    const url = new URL(TEST_PG_URL!);
    url.pathname = "/no_such_database_here";
    const error = await openPgStore(url.toString(), { poolMax: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(storageErrorCode(error)).toBe("3D000");
    expect(storageFaultKind(error)).toBe("cannot_open");
  });
});
