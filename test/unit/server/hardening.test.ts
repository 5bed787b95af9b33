import { describe, expect, it, vi } from "vitest";
import { admit } from "@/server/http/admission";
import { eventLoopLagMs } from "@/server/http/loop-turn";
import { ApiError } from "@/server/http/api-error";
import { AuthThrottle } from "@/server/http/auth-throttle";
import { hostAllowed, hostName } from "@/server/http/host-check";
import { hostFromArgv, isLoopbackAddress } from "@/server/boot";
import { describeStorageFault, noteIntegrityCheck, noteStorageFailure, noteWriteSucceeded, resetStorageHealth, storageFaultKind, storageHealth, storageLocation } from "@/server/storage-fault";

const sqliteError = (code: string) => Object.assign(new Error(code), { code });

describe("host names", () => {
  it.each([
    ["localhost:3000", "localhost"],
    ["127.0.0.1", "127.0.0.1"],
    ["[::1]:3000", "[::1]"],
    ["Faultline.Example.COM.:443", "faultline.example.com"],
  ])("%s is %s", (header, name) => expect(hostName(header)).toBe(name));

  it("accepts loopback names and the configured ones, nothing else", () => {
    for (const h of ["localhost:3000", "127.0.0.1:1", "[::1]:80", "LOCALHOST"]) expect(hostAllowed(h, [])).toBe(true);
    for (const h of ["rebind.example:3000", "127.0.0.2", "localhost.evil.com", "", null]) expect(hostAllowed(h, [])).toBe(false);
    expect(hostAllowed("faultline.internal:3000", ["faultline.internal"])).toBe(true);
    expect(hostAllowed("[fd00::1]:3000", ["fd00::1"])).toBe(true);
    expect(hostAllowed("anything", ["*"])).toBe(true);
  });
});

describe("auth throttle", () => {
  it("blocks an address after N failures until its window ends, and forgets it then", () => {
    const t = new AuthThrottle(3, 60_000);
    for (let i = 0; i < 2; i++) t.fail("a", 1000);
    expect(t.blockedFor("a", 1000)).toBe(0);
    t.fail("a", 2000);
    expect(t.blockedFor("a", 2000)).toBe(59);
    expect(t.blockedFor("b", 2000)).toBe(0);
    expect(() => t.check("a", "ingest key", 2000)).toThrow(ApiError);
    expect(t.blockedFor("a", 61_001)).toBe(0);
    expect(t.size).toBe(0);
  });

  it("stays bounded: the oldest address makes room", () => {
    const t = new AuthThrottle(1, 60_000, 3);
    for (const a of ["a", "b", "c", "d"]) t.fail(a, 0);
    expect(t.size).toBe(3);
    expect(t.blockedFor("a", 1)).toBe(0);
    expect(t.blockedFor("d", 1)).toBe(60);
  });
});

describe("admission", () => {
  it("admits without an arrival stamp (server not hooked) and while the loop is on time", () => {
    expect(eventLoopLagMs()).toBe(0);
    expect(() => admit(new Request("http://localhost/api/v1/ingest", { method: "POST" }))).not.toThrow();
  });
});

describe("binding", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.8.9.1", true],
    ["::1", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["localhost", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.4", false],
  ])("%s is loopback: %s", (address, loopback) => expect(isLoopbackAddress(address)).toBe(loopback));

  it("reads next's -H the ways the CLI accepts it, defaulting to every interface", () => {
    expect(hostFromArgv(["node", "next", "start", "-H", "127.0.0.1", "-p", "3000"])).toBe("127.0.0.1");
    expect(hostFromArgv(["node", "next", "start", "--hostname=::1"])).toBe("::1");
    expect(hostFromArgv(["node", "next", "start", "-p", "3000"])).toBe("0.0.0.0");
    expect(hostFromArgv(["node", "server.js"])).toBeNull();
  });
});

describe("storage faults", () => {
  it.each([
    ["SQLITE_CORRUPT", "corrupt"],
    ["SQLITE_NOTADB", "corrupt"],
    ["SQLITE_READONLY_DBMOVED", "read_only"],
    ["EACCES", "read_only"],
    ["SQLITE_FULL", "full"],
    ["SQLITE_CANTOPEN", "cannot_open"],
    ["SQLITE_IOERR_WRITE", "io_error"],
    ["SQLITE_BUSY", "busy"],
    ["SQLITE_CONSTRAINT_UNIQUE", null],
  ])("%s is %s", (code, kind) => expect(storageFaultKind(sqliteError(code))).toBe(kind));

  it("degrades on a failed write and recovers on the next successful one; a busy lock is no fault", () => {
    resetStorageHealth();
    noteStorageFailure(sqliteError("SQLITE_BUSY"));
    expect(storageHealth()).toEqual({ status: "ok" });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    noteStorageFailure(sqliteError("SQLITE_FULL"), 5);
    noteStorageFailure(sqliteError("SQLITE_FULL"), 6);
    // Health is public: the kind only; the file and the cause go to the server's log, once per fault.
    expect(storageHealth()).toEqual({ status: "degraded", database: "full", reason: "the database's disk is full; the server's log says what to do", since: 5, acceptsWrites: true });
    expect(logged.mock.calls).toEqual([[`[faultline] storage fault: ${describeStorageFault("full", storageLocation(), "SQLITE_FULL")}`]]);
    logged.mockRestore();
    noteWriteSucceeded();
    expect(storageHealth()).toEqual({ status: "ok" });
  });

  it("stops writes after a failed integrity check until one passes", () => {
    resetStorageHealth();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    noteIntegrityCheck("*** in database main *** Page 7: btreeInitPage() returns error code 11", 9);
    const health = storageHealth();
    expect(health).toMatchObject({ status: "degraded", database: "corrupt", acceptsWrites: false, since: 9 });
    // The check's output is in the log, not in the public reason.
    expect(health.status === "degraded" && health.reason).toBe("the database is damaged; ingest is paused so that nothing more is written into it; the server's log says what to do");
    expect(String(logged.mock.calls[0]?.[0])).toContain("btreeInitPage() returns error code 11");
    logged.mockRestore();
    noteIntegrityCheck("ok");
    expect(storageHealth()).toEqual({ status: "ok" });
  });
});
