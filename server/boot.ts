import { isIP } from "node:net";
import { ensureDefaultProject } from "@/db/keys";
import { ConfigError, config, type Config } from "./config";
import { startAdmission } from "./http/admission";
import { LOOPBACK_HOSTS } from "./http/host-check";
import { attachToHttpServers, boundAddresses } from "./http/node-server";
import { startHealthChecks } from "./jobs/health-check";
import { startDriftJobs } from "./jobs/drift-fold";
import { startAlerts } from "./jobs/alerts";
import { startRetention } from "./jobs/retention";
import { describeStorageFault, storageErrorCode, storageFaultKind, storageLocation } from "./storage-fault";
import { getStore } from "./store";

/** Prints one line and stops the process: a server that cannot do its job must not look alive. */
function refuse(message: string): never {
  console.error(`[faultline] cannot start: ${message}`);
  process.exit(1);
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped and named forms. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (a === "localhost" || a === "::1") return true;
  const v4 = a.startsWith("::ffff:") ? a.slice(7) : a;
  return isIP(v4) === 4 && v4.startsWith("127.");
}

/**
 * The host `next start`/`next dev` was told to bind (`-H`/`--hostname`), or its default, all
 * interfaces; null when this is not the Next CLI (a custom server checks its own binding).
 */
export function hostFromArgv(argv: readonly string[]): string | null {
  const command = argv.findIndex((a) => a === "start" || a === "dev");
  if (command < 0) return null;
  for (let i = command + 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-H" || arg === "--hostname") return argv[i + 1] ?? "0.0.0.0";
    const inline = arg.match(/^(?:--hostname|-H)=(.*)$/);
    if (inline) return inline[1]!;
  }
  return "0.0.0.0";
}

/**
 * DESIGN.md's rule, enforced by the server itself (not only by `npm start`): listening anywhere
 * but loopback requires an admin secret. The addresses are the ones the HTTP server really bound
 * (`next start -H 0.0.0.0`, or no `-H`, binds every interface), or the CLI's argument when the
 * server cannot be found.
 */
function checkBinding(c: Config): void {
  const found = boundAddresses();
  const fromArgv = hostFromArgv(process.argv);
  const addresses = found.length > 0 ? found : fromArgv === null ? [] : [fromArgv];
  const exposed = addresses.filter((a) => !isLoopbackAddress(a));
  if (exposed.length === 0) return;
  if (!c.adminSecret) {
    refuse(`listening on ${exposed.join(", ")} (beyond loopback) needs FAULTLINE_ADMIN_SECRET; set it, or bind to 127.0.0.1 (next start -H 127.0.0.1)`);
  }
  if (c.allowedHosts.length === 0) {
    console.warn(
      `[faultline] listening on ${exposed.join(", ")}, but only requests addressed to ${LOOPBACK_HOSTS.join(", ")} are served; list the names clients use in FAULTLINE_ALLOWED_HOSTS`,
    );
  }
}

/** Opens the database; a storage fault stops the start with one line saying what to do. */
async function openDatabase(c: Config) {
  const where = storageLocation();
  try {
    const store = await getStore();
    return { store, created: await ensureDefaultProject(store) };
  } catch (error) {
    const kind = storageFaultKind(error);
    const code = storageErrorCode(error);
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    if (c.databaseUrl) {
      if (kind !== null && kind !== "busy") refuse(describeStorageFault(kind, where, code));
      refuse(`opening PostgreSQL at ${where} failed${code ? ` (${code})` : ""}: ${message}; check FAULTLINE_DATABASE_URL`);
    }
    if (kind === "busy") refuse(`the database file ${where} is locked by another process (${code}); stop it or raise FAULTLINE_BUSY_TIMEOUT_MS`);
    if (kind !== null) refuse(describeStorageFault(kind, where, code));
    refuse(`opening the database file ${where} failed${code ? ` (${code})` : ""}: ${message}; check FAULTLINE_DB_PATH`);
  }
}

/**
 * Server start-up (called once by the instrumentation hook): check the configuration and the
 * binding, open the database (which applies migrations), bound the HTTP server's waits, start the
 * background jobs and health checks and, on a fresh database, create the default project and print
 * its first key. Anything that stops the start prints one line and exits non-zero.
 */
export async function boot(): Promise<void> {
  let c: Config;
  try {
    c = config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    refuse(error.message);
  }
  checkBinding(c);
  const { store, created } = await openDatabase(c);
  attachToHttpServers({ headersTimeoutMs: c.headersTimeoutMs, requestTimeoutMs: c.headersTimeoutMs + c.bodyTimeoutMs + 5000 });
  startAdmission(c.queueBudgetMs);
  startRetention();
  startAlerts();
  void startDriftJobs(store);
  startHealthChecks(store);
  console.log(`[faultline] database ${store.dialect === "sqlite" ? store.path : `PostgreSQL ${store.location}`} ready (migrations applied)`);
  if (!created) return;
  console.log(
    [
      "",
      "  Faultline created the project 'default' and its first ingest key:",
      "",
      `      ${created.key}`,
      "",
      "  It is shown this once and stored only as a hash. Lost it? Create another with",
      "  `npm run keys -- create` (and revoke the old one with `npm run keys -- revoke " + created.prefix + "`).",
      "",
    ].join("\n"),
  );
}
