import path from "node:path";
import { z } from "zod";
import type { ProjectRole } from "@/lib/auth/roles";
import { processState } from "./process-state";

const DAY_MS = 86_400_000;

const int = (min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `a whole number from ${min} to ${max}`).max(max, `a whole number from ${min} to ${max}`))
    .optional()
    .transform((v) => v ?? fallback);

/** A positive decimal number within a range (hours may be fractions: tests shorten a session to seconds). */
const decimal = (min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, `a number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `a number from ${min} to ${max}`).max(max, `a number from ${min} to ${max}`))
    .optional()
    .transform((v) => v ?? fallback);

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

/** The roles a new single-sign-on user may get in the default project. */
export const SSO_DEFAULT_ROLES = ["viewer", "member", "admin"] as const satisfies readonly ProjectRole[];

/**
 * Every environment variable the server reads, with its accepted range and default (documented in
 * the README). An unset or empty variable takes the default; anything else out of range stops the
 * start, because a silently ignored setting (a backpressure limit of `abc`) is worse than no start.
 */
const envSchema = z.object({
  // The job worker opens its own connection to the same file, so the server needs a file.
  FAULTLINE_DB_PATH: optionalText.refine((v) => v !== ":memory:", "a file path (the server cannot run on :memory:)"),
  FAULTLINE_BUSY_TIMEOUT_MS: int(0, 600_000, 5000),
  // Set, the data lives in PostgreSQL and FAULTLINE_DB_PATH is not used (README: several nodes).
  FAULTLINE_DATABASE_URL: optionalText.refine((v) => v === undefined || /^postgres(ql)?:\/\/[^\s]+$/i.test(v), "a postgres:// or postgresql:// URL"),
  FAULTLINE_PG_POOL_MAX: int(1, 1000, 10),
  // 0 refuses every ingest request with 429 (a maintenance switch, and how tests reach the limit).
  FAULTLINE_MAX_INFLIGHT: int(0, 10_000, 64),
  FAULTLINE_RETENTION_DAYS: int(1, 36_500, 30),
  FAULTLINE_MAX_SPANS: int(1000, 10_000_000_000, 10_000_000),
  FAULTLINE_ROLLUP_RETENTION_DAYS: int(1, 36_500, 400),
  FAULTLINE_DRIFT_REFRESH_MS: int(0, 3_600_000, 2000),
  FAULTLINE_DRIFT_MAX_WAIT_MS: int(0, 86_400_000, 30_000),
  FAULTLINE_RETENTION_EVERY_MS: int(60_000, 7 * DAY_MS, 3_600_000),
  FAULTLINE_ADMIN_SECRET: optionalText,
  // Host names (comma-separated) the server answers besides the loopback names; `*` accepts any.
  FAULTLINE_ALLOWED_HOSTS: optionalText,
  // Admission control: an ingest request that waited longer than this before its handler ran is shed with 429.
  FAULTLINE_QUEUE_BUDGET_MS: int(50, 60_000, 1000),
  // Above what one key holds at the rate the process sustains (about 120 requests/s of 100 records,
  // answered in up to 200 ms: 24 at once): at 16, clients sending in bursts were refused at 1×.
  FAULTLINE_MAX_INFLIGHT_PER_KEY: int(1, 10_000, 32),
  FAULTLINE_HEADERS_TIMEOUT_MS: int(1000, 600_000, 10_000),
  FAULTLINE_BODY_TIMEOUT_MS: int(1000, 600_000, 10_000),
  FAULTLINE_AUTH_MAX_FAILURES: int(1, 10_000, 10),
  FAULTLINE_AUTH_WINDOW_MS: int(1000, 86_400_000, 60_000),
  FAULTLINE_TRUST_PROXY: z.enum(["0", "1"], "0 or 1").optional().transform((v) => v === "1"),
  FAULTLINE_HEALTH_CHECK_EVERY_MS: int(200, 3_600_000, 10_000),
  FAULTLINE_QUICK_CHECK_EVERY_MS: int(1000, 7 * DAY_MS, 900_000),
  FAULTLINE_MIN_FREE_MB: int(0, 1_000_000, 32),
  // Webhooks to loopback and private addresses are refused unless allowed: the server must not become a proxy into its own network.
  FAULTLINE_ALERT_ALLOW_PRIVATE: z.enum(["0", "1"], "0 or 1").optional().transform((v) => v === "1"),
  FAULTLINE_ALERT_INTERVAL_MS: int(100, 3_600_000, 60_000),
  // The first retry of a failed delivery; each next one waits twice as long, up to FAULTLINE_ALERT_RETRY_CAP_MS.
  FAULTLINE_ALERT_RETRY_BASE_MS: int(100, 3_600_000, 30_000),
  FAULTLINE_ALERT_RETRY_CAP_MS: int(100, 86_400_000, 3_600_000),
  FAULTLINE_ALERT_GIVE_UP_MS: int(1000, 7 * DAY_MS, DAY_MS),
  FAULTLINE_ALERT_TIMEOUT_MS: int(100, 60_000, 5000),
  // Email receivers send through this server: smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465.
  FAULTLINE_SMTP_URL: optionalText.refine((v) => v === undefined || /^smtps?:\/\/[^\s/]+\/?$/i.test(v.trim()), "an smtp:// or smtps:// URL (smtp://user:password@host:port)"),
  // The sender of alert emails; faultline@<the SMTP host> when not set.
  FAULTLINE_SMTP_FROM: optionalText.refine((v) => v === undefined || /^[^\s@<>]+@[^\s@<>]+$/.test(v.trim()), "an e-mail address"),
  // A session ends this long after its last use (sliding); fractions of an hour are allowed.
  FAULTLINE_SESSION_TTL_HOURS: decimal(0.001, 8760, 168),
  // Where the dashboard is reached, so a notification's link is absolute (relative without it).
  FAULTLINE_PUBLIC_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/[^\s]+$/i.test(v), "an http:// or https:// URL"),
  // Single sign-on (docs/sso.md): the issuer, client id and secret go together; the rest refine it.
  FAULTLINE_OIDC_ISSUER: optionalText.refine((v) => v === undefined || issuerAllowed(v), "an https:// issuer URL (http:// only on loopback, for a local test provider)"),
  FAULTLINE_OIDC_CLIENT_ID: optionalText,
  FAULTLINE_OIDC_CLIENT_SECRET: optionalText,
  // Owner is never handed out by default: it would let anyone the provider knows manage the project.
  FAULTLINE_OIDC_DEFAULT_ROLE: z.enum(SSO_DEFAULT_ROLES, "viewer, member or admin").optional().transform((v) => v ?? "viewer"),
  FAULTLINE_OIDC_DEFAULT_PROJECT: optionalText.refine((v) => v === undefined || /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(v.trim()), "a project id"),
  FAULTLINE_OIDC_LABEL: optionalText.refine((v) => v === undefined || (v.trim().length <= 60 && !/[\u0000-\u001f\u007f]/.test(v)), "a name of at most 60 characters"),
});


/** An issuer must be HTTPS; plain HTTP only on loopback, where a local test provider runs. */
function issuerAllowed(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return false;
  }
  if (url.search !== "" || url.hash !== "") return false;
  if (url.protocol === "https:") return true;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return url.protocol === "http:" && (host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host));
}

/** The variables single sign-on cannot work without: all of them, or none. */
const OIDC_REQUIRED = ["FAULTLINE_OIDC_ISSUER", "FAULTLINE_OIDC_CLIENT_ID", "FAULTLINE_OIDC_CLIENT_SECRET"] as const;

/** OpenID Connect sign-in, when configured (docs/sso.md). */
export interface OidcConfig {
  /** The issuer identifier, as the provider's discovery document must repeat it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The role a new user gets in `defaultProject`. */
  defaultRole: (typeof SSO_DEFAULT_ROLES)[number];
  /** The project a new user joins. */
  defaultProject: string;
  /** Shown as "Sign in with <label>". */
  label: string;
}

/** Single sign-on is optional, but half a configuration is a mistake worth stopping for. */
function parseOidc(env: Record<string, string | undefined>, e: z.output<typeof envSchema>): OidcConfig | null {
  const set = Object.keys(env).filter((k) => k.startsWith("FAULTLINE_OIDC_") && (env[k] ?? "").trim() !== "");
  if (set.length === 0) return null;
  const missing = OIDC_REQUIRED.find((name) => e[name] === undefined);
  if (missing) {
    throw new ConfigError(
      `${missing} is missing: single sign-on needs ${OIDC_REQUIRED.join(", ")} together (set: ${set.sort().join(", ")}); set it, or unset the others to turn single sign-on off`,
    );
  }
  return {
    issuer: e.FAULTLINE_OIDC_ISSUER!.trim(),
    clientId: e.FAULTLINE_OIDC_CLIENT_ID!.trim(),
    clientSecret: e.FAULTLINE_OIDC_CLIENT_SECRET!,
    defaultRole: e.FAULTLINE_OIDC_DEFAULT_ROLE,
    // The project `npm start` creates on a fresh database (db/keys.ts DEFAULT_PROJECT_ID).
    defaultProject: e.FAULTLINE_OIDC_DEFAULT_PROJECT?.trim() ?? "default",
    label: e.FAULTLINE_OIDC_LABEL?.trim() ?? "single sign-on",
  };
}

/** The secret is compared against whatever a client sends, so a short one is guessable. */
export const MIN_ADMIN_SECRET_LENGTH = 16;

/** The parsed configuration; see `loadConfig`. */
export interface Config {
  dbPath: string;
  /** PostgreSQL instead of the SQLite file at `dbPath`. */
  databaseUrl: string | undefined;
  /** Connections per process (PostgreSQL). */
  pgPoolMax: number;
  busyTimeoutMs: number;
  maxInflight: number;
  retentionDays: number;
  maxSpans: number;
  rollupRetentionDays: number;
  driftQuietMs: number;
  driftMaxWaitMs: number;
  retentionEveryMs: number;
  adminSecret: string | undefined;
  /** Host names accepted in the `Host` header besides the loopback names (lower-case); `["*"]` accepts any. */
  allowedHosts: string[];
  queueBudgetMs: number;
  maxInflightPerKey: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  authMaxFailures: number;
  authWindowMs: number;
  trustProxy: boolean;
  healthCheckEveryMs: number;
  quickCheckEveryMs: number;
  minFreeBytes: number;
  alertAllowPrivate: boolean;
  alertIntervalMs: number;
  alertRetryBaseMs: number;
  alertRetryCapMs: number;
  alertGiveUpMs: number;
  alertTimeoutMs: number;
  /** The SMTP server email receivers send through; null when not configured (email receivers are then refused). */
  smtp: { url: string; from: string } | null;
  publicUrl: string;
  /** Single sign-on; null when not configured. */
  oidc: OidcConfig | null;
  /** How long a session lives after its last use. */
  sessionTtlMs: number;
}

/** A configuration error worded for one line of a start-up log. */
export class ConfigError extends Error {}

/** Parses the environment; throws a `ConfigError` naming the first bad variable and its accepted range. */
export function parseConfig(env: Record<string, string | undefined>, cwd: string = process.cwd()): Config {
  // Empty strings are "unset" for the number fields too: `FAULTLINE_MAX_INFLIGHT=` keeps the default.
  const secret = env.FAULTLINE_ADMIN_SECRET;
  // Never echo the secret: the line names the variable and the rule only. Empty means unset (as for
  // every variable); blank (only spaces) or short is refused rather than silently weak.
  if (secret !== undefined && secret !== "" && secret.trim().length < MIN_ADMIN_SECRET_LENGTH) {
    throw new ConfigError(`invalid FAULTLINE_ADMIN_SECRET: expected at least ${MIN_ADMIN_SECRET_LENGTH} characters (not only spaces); generate one with \`openssl rand -base64 24\``);
  }
  const present = Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith("FAULTLINE_") && v !== undefined && v.trim() !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    // A database or SMTP URL may carry a password, the client secret is one: name the variable, never its value.
    const shown = name === "FAULTLINE_DATABASE_URL" || name === "FAULTLINE_OIDC_CLIENT_SECRET" || name === "FAULTLINE_SMTP_URL" ? "" : `=${JSON.stringify(env[name] ?? "")}`;
    throw new ConfigError(`invalid ${name}${shown}: expected ${issue.message}`);
  }
  const e = parsed.data;
  return {
    dbPath: e.FAULTLINE_DB_PATH ?? path.join(cwd, "data", "faultline.db"),
    databaseUrl: e.FAULTLINE_DATABASE_URL,
    pgPoolMax: e.FAULTLINE_PG_POOL_MAX,
    busyTimeoutMs: e.FAULTLINE_BUSY_TIMEOUT_MS,
    maxInflight: e.FAULTLINE_MAX_INFLIGHT,
    retentionDays: e.FAULTLINE_RETENTION_DAYS,
    maxSpans: e.FAULTLINE_MAX_SPANS,
    rollupRetentionDays: e.FAULTLINE_ROLLUP_RETENTION_DAYS,
    driftQuietMs: e.FAULTLINE_DRIFT_REFRESH_MS,
    driftMaxWaitMs: e.FAULTLINE_DRIFT_MAX_WAIT_MS,
    retentionEveryMs: e.FAULTLINE_RETENTION_EVERY_MS,
    adminSecret: e.FAULTLINE_ADMIN_SECRET,
    allowedHosts: (e.FAULTLINE_ALLOWED_HOSTS ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase().replace(/\.$/, ""))
      .filter((h) => h !== ""),
    queueBudgetMs: e.FAULTLINE_QUEUE_BUDGET_MS,
    maxInflightPerKey: e.FAULTLINE_MAX_INFLIGHT_PER_KEY,
    headersTimeoutMs: e.FAULTLINE_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: e.FAULTLINE_BODY_TIMEOUT_MS,
    authMaxFailures: e.FAULTLINE_AUTH_MAX_FAILURES,
    authWindowMs: e.FAULTLINE_AUTH_WINDOW_MS,
    trustProxy: e.FAULTLINE_TRUST_PROXY,
    healthCheckEveryMs: e.FAULTLINE_HEALTH_CHECK_EVERY_MS,
    quickCheckEveryMs: e.FAULTLINE_QUICK_CHECK_EVERY_MS,
    minFreeBytes: e.FAULTLINE_MIN_FREE_MB * 1024 * 1024,
    alertAllowPrivate: e.FAULTLINE_ALERT_ALLOW_PRIVATE,
    alertIntervalMs: e.FAULTLINE_ALERT_INTERVAL_MS,
    alertRetryBaseMs: e.FAULTLINE_ALERT_RETRY_BASE_MS,
    alertRetryCapMs: e.FAULTLINE_ALERT_RETRY_CAP_MS,
    alertGiveUpMs: e.FAULTLINE_ALERT_GIVE_UP_MS,
    alertTimeoutMs: e.FAULTLINE_ALERT_TIMEOUT_MS,
    smtp: e.FAULTLINE_SMTP_URL
      ? { url: e.FAULTLINE_SMTP_URL.trim(), from: e.FAULTLINE_SMTP_FROM?.trim() ?? `faultline@${new URL(e.FAULTLINE_SMTP_URL.trim()).hostname}` }
      : null,
    publicUrl: e.FAULTLINE_PUBLIC_URL ?? "",
    oidc: parseOidc(env, e),
    sessionTtlMs: Math.round(e.FAULTLINE_SESSION_TTL_HOURS * 3_600_000),
  };
}

/** What `openStore` opens: the PostgreSQL URL when one is set, else the SQLite file. */
export const storeTarget = (c: Config): string => c.databaseUrl ?? c.dbPath;

const cache = processState("config", (): { config?: Config } => ({}));

/** The process's configuration, parsed once (the instrumentation hook parses it first and stops a bad start). */
export function config(): Config {
  return (cache.config ??= parseConfig(process.env));
}
