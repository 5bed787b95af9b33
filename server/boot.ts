import { isIP } from "node:net";
import { countUsers } from "@/db/auth/users";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { describeStore } from "@/db/store/engine-upkeep";
import { describeOpenFailure } from "@/db/store/storage-faults";
import { announceSso } from "./auth/oidc/announce-sso";
import { dashboardBaseUrl, issueSetupLink } from "./auth/setup-link";
import { ConfigError, config, type Config } from "./config";
import { startAdmission } from "./http/admission";
import { LOOPBACK_HOSTS } from "./http/host-check";
import { attachToHttpServers, boundAddresses, boundEndpoints } from "./http/node-server";
import { startHealthChecks } from "./jobs/health-check";
import { startDriftJobs } from "./jobs/drift-fold";
import { startAlerts } from "./jobs/alerts";
import { startRetention } from "./jobs/retention";
import { storageLocation } from "./storage-fault";
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
async function openDatabase() {
  const where = storageLocation();
  try {
    const store = await getStore();
    return { store, created: await ensureDefaultProject(store) };
  } catch (error) {
    refuse(describeOpenFailure(where, error));
  }
}

/** The port `next start -p` was given (or PORT, or Next's default), for when the server cannot be found. */
function portFromArgv(argv: readonly string[]): number {
  const i = argv.findIndex((a) => a === "-p" || a === "--port");
  const inline = argv.map((a) => a.match(/^(?:--port|-p)=(\d+)$/)?.[1]).find(Boolean);
  return Number(inline ?? (i >= 0 ? argv[i + 1] : undefined) ?? process.env.PORT ?? 3000);
}

/**
 * While no account exists, every start prints a fresh one-time link that creates the instance owner
 * (the two-command start stays: no email server, no extra step). Links printed before stay valid
 * until they expire, so several nodes starting together do not spoil one another's.
 */
async function printSetupLink(store: Store, c: Config): Promise<void> {
  if ((await countUsers(store)) > 0) return;
  const bound = boundEndpoints()[0];
  const base = dashboardBaseUrl({ publicUrl: c.publicUrl, allowedHosts: c.allowedHosts, address: bound?.address ?? hostFromArgv(process.argv), port: bound?.port ?? portFromArgv(process.argv) });
  const { url } = await issueSetupLink(store, base);
  const until = c.adminSecret ? "Until then the dashboard asks for FAULTLINE_ADMIN_SECRET." : "Until then anyone who can reach the dashboard may use it (setup mode).";
  console.log(
    [
      "",
      "  No one can sign in yet. Create the owner account with this one-time link (valid 24 hours):",
      "",
      `      ${url}`,
      "",
      `  ${until} Need another link? \`npm run keys -- setup-link\`.`,
      "",
    ].join("\n"),
  );
}

/**
 * Server start-up (called once by the instrumentation hook): check the configuration and the
 * binding, open the database (which applies migrations), bound the HTTP server's waits, start the
 * background jobs and health checks and, on a fresh database, create the default project and print
 * its first key, and while nobody has an account, a setup link. Anything that stops the start prints
 * one line and exits non-zero.
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
  const { store, created } = await openDatabase();
  attachToHttpServers({ headersTimeoutMs: c.headersTimeoutMs, requestTimeoutMs: c.headersTimeoutMs + c.bodyTimeoutMs + 5000 });
  startAdmission({ budgetMs: c.queueBudgetMs, maxPerCredential: c.maxInflightPerKey });
  startRetention();
  startAlerts();
  void startDriftJobs(store);
  startHealthChecks(store);
  console.log(`[faultline] database ${describeStore(store)} ready (migrations applied)`);
  await announceSso(store, c);
  if (created) printFirstKey(created);
  // A database that cannot take writes right now still serves reads: the start goes on, and the next start (or the CLI) issues the link.
  await printSetupLink(store, c).catch((error: unknown) => console.error(`[faultline] could not issue a setup link: ${error instanceof Error ? error.message : String(error)}; run \`npm run keys -- setup-link\``));
}

/** The first ingest key of a fresh database, printed once (only its hash is stored). */
function printFirstKey(created: { key: string; prefix: string }): void {
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
