// What the database drivers' errors mean for an operator: SQLite result codes, PostgreSQL SQLSTATEs
// and the network errors of a PostgreSQL server out of reach, each with the line that says what to do.
// Engine knowledge, so it lives in db/; it imports nothing, so the HTTP plumbing (and the proxy) can
// classify errors without loading a driver.

/** What kind of storage fault an error is; `null` for anything that is not one. */
export type StorageFaultKind = "corrupt" | "read_only" | "full" | "io_error" | "cannot_open" | "unreachable" | "busy";

/** The SQLite result code, PostgreSQL SQLSTATE or errno of a storage error ("" when it has none). */
export function storageErrorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

// Network errors reaching a PostgreSQL server (node's errno codes). ECONNRESET and EPIPE are left
// out: a client that hangs up mid-request fails with those too, and that is no storage fault; a
// server connection lost mid-query surfaces as node-postgres's "Connection terminated" instead.
const UNREACHABLE = new Set(["ECONNREFUSED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const PG_CONNECTION_LOST = /timeout exceeded when trying to connect|Connection terminated/i;

/** PostgreSQL's errors carry a SQLSTATE and a severity. */
const isPgServerError = (error: unknown, code: string) => /^[0-9A-Z]{5}$/.test(code) && typeof (error as { severity?: unknown }).severity === "string";

/**
 * True for an error raised by the database driver (SQLite's result codes, a PostgreSQL SQLSTATE,
 * or a PostgreSQL server out of reach), as opposed to a file or socket error of the request itself.
 */
export function isDatabaseError(error: unknown): boolean {
  const code = storageErrorCode(error);
  if (code.startsWith("SQLITE_") || isPgServerError(error, code) || UNREACHABLE.has(code)) return true;
  return code === "" && error instanceof Error && PG_CONNECTION_LOST.test(error.message);
}

/** PostgreSQL SQLSTATEs by what an operator has to do (https://www.postgresql.org/docs/15/errcodes-appendix.html). */
function pgFaultKind(code: string): StorageFaultKind | null {
  if (code === "XX001" || code === "XX002") return "corrupt";
  // A hot standby (a replica) refuses writes: the URL points at the wrong server.
  if (code === "25006") return "read_only";
  if (code === "53100") return "full";
  if (code === "58030") return "io_error";
  // Unknown database, failed authentication, missing privilege: the URL or the role is wrong.
  if (code === "3D000" || code === "28P01" || code === "28000" || code === "42501") return "cannot_open";
  // Connection lost, server shutting down or not yet accepting connections.
  if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03") return "unreachable";
  // Out of connections or memory, or a lock wait that ran out: transient, like SQLITE_BUSY.
  if (code === "53300" || code === "53200" || code === "55P03" || code === "57014") return "busy";
  return null;
}

/** Classifies a SQLite, PostgreSQL or file-system error by what an operator has to do about it. */
export function storageFaultKind(error: unknown): StorageFaultKind | null {
  const code = storageErrorCode(error);
  if (isPgServerError(error, code)) return pgFaultKind(code);
  if (UNREACHABLE.has(code)) return "unreachable";
  // node-postgres's pool gives up waiting for a connection, or loses one, with a message and no code.
  if (code === "" && error instanceof Error && PG_CONNECTION_LOST.test(error.message)) return "unreachable";
  if (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB")) return "corrupt";
  if (code.startsWith("SQLITE_READONLY") || code === "EROFS" || code === "EACCES" || code === "EPERM") return "read_only";
  if (code.startsWith("SQLITE_FULL") || code === "ENOSPC" || code === "EDQUOT") return "full";
  if (code.startsWith("SQLITE_CANTOPEN") || code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "EEXIST") return "cannot_open";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
  // An immutable file or a failing device surfaces as an I/O error on write.
  if (code.startsWith("SQLITE_IOERR") || code === "EIO") return "io_error";
  return null;
}

function describePgFault(kind: Exclude<StorageFaultKind, "busy">, url: string, tag: string): string {
  switch (kind) {
    case "corrupt":
      return `PostgreSQL at ${url} reports damaged data${tag}; check the server's log and restore from a backup`;
    case "read_only":
      return `PostgreSQL at ${url} refuses writes${tag}; FAULTLINE_DATABASE_URL must name the primary, not a replica`;
    case "full":
      return `the disk of PostgreSQL at ${url} is full${tag}; free space on the server (retention settings: FAULTLINE_RETENTION_DAYS, FAULTLINE_MAX_SPANS)`;
    case "io_error":
      return `PostgreSQL at ${url} failed with an I/O error${tag}; check the server's disk and log`;
    case "cannot_open":
      return `PostgreSQL at ${url} refused the database or the role${tag}; check the database name, user and password in FAULTLINE_DATABASE_URL`;
    case "unreachable":
      return `PostgreSQL at ${url} cannot be reached${tag}; check that it is running and reachable from this node`;
  }
}

/** One line for an operator: what happened, to which file or server, and what to do. */
export function describeStorageFault(kind: Exclude<StorageFaultKind, "busy">, file: string, code: string): string {
  const tag = code ? ` (${code})` : "";
  if (file.includes("://")) return describePgFault(kind, file, tag);
  switch (kind) {
    case "unreachable":
      return `the database file ${file} cannot be reached${tag}`;
    case "corrupt":
      return `the database file ${file} is damaged or is not a SQLite database${tag}; restore it from a backup, or move it aside to start with an empty one (FAULTLINE_DB_PATH chooses the file)`;
    case "read_only":
      return `the database file ${file} or its folder is not writable${tag}; make both writable for this user (check permissions, immutable attributes and read-only mounts)`;
    case "full":
      return `the disk holding ${file} is full${tag}; free space there (retention settings: FAULTLINE_RETENTION_DAYS, FAULTLINE_MAX_SPANS)`;
    case "cannot_open":
      return `the database file ${file} cannot be opened or created${tag}; check that its folder exists and is writable, or set FAULTLINE_DB_PATH to a writable path`;
    case "io_error":
      return `writing the database file ${file} failed with an I/O error${tag}; check that the file, its -wal file and the disk are writable and healthy`;
  }
}

/** The line that stops a start whose database could not be opened, for the file or URL `location`. */
export function describeOpenFailure(location: string, error: unknown): string {
  const kind = storageFaultKind(error);
  const code = storageErrorCode(error);
  const tag = code ? ` (${code})` : "";
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  if (location.includes("://")) {
    if (kind !== null && kind !== "busy") return describeStorageFault(kind, location, code);
    return `opening PostgreSQL at ${location} failed${tag}: ${message}; check FAULTLINE_DATABASE_URL`;
  }
  if (kind === "busy") return `the database file ${location} is locked by another process (${code}); stop it or raise FAULTLINE_BUSY_TIMEOUT_MS`;
  if (kind !== null) return describeStorageFault(kind, location, code);
  return `opening the database file ${location} failed${tag}: ${message}; check FAULTLINE_DB_PATH`;
}
