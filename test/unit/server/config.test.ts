import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, storeTarget } from "@/server/config";

const parse = (env: Record<string, string>) => parseConfig(env, "/srv/faultline");

describe("parseConfig", () => {
  it("gives every setting its documented default when nothing is set", () => {
    expect(parse({})).toEqual({
      dbPath: path.join("/srv/faultline", "data", "faultline.db"),
      databaseUrl: undefined,
      pgPoolMax: 10,
      busyTimeoutMs: 5000,
      maxInflight: 64,
      retentionDays: 30,
      maxSpans: 10_000_000,
      rollupRetentionDays: 400,
      driftQuietMs: 2000,
      driftMaxWaitMs: 30_000,
      retentionEveryMs: 3_600_000,
      adminSecret: undefined,
      allowedHosts: [],
      queueBudgetMs: 1000,
      maxInflightPerKey: 16,
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 10_000,
      authMaxFailures: 10,
      authWindowMs: 60_000,
      trustProxy: false,
      healthCheckEveryMs: 10_000,
      quickCheckEveryMs: 900_000,
      minFreeBytes: 32 * 1024 * 1024,
      alertAllowPrivate: false,
      alertIntervalMs: 60_000,
      alertRetryBaseMs: 30_000,
      alertRetryCapMs: 3_600_000,
      alertGiveUpMs: 86_400_000,
      alertTimeoutMs: 5000,
      publicUrl: "",
    });
  });

  it("reads set values and treats empty ones as unset", () => {
    const c = parse({ FAULTLINE_DB_PATH: "/var/lib/fl.db", FAULTLINE_MAX_INFLIGHT: " 8 ", FAULTLINE_RETENTION_DAYS: "", FAULTLINE_ADMIN_SECRET: "s3cret-s3cret-s3cret" });
    expect([c.dbPath, c.maxInflight, c.retentionDays, c.adminSecret]).toEqual(["/var/lib/fl.db", 8, 30, "s3cret-s3cret-s3cret"]);
  });

  it.each([
    ["FAULTLINE_MAX_INFLIGHT", "abc", 'invalid FAULTLINE_MAX_INFLIGHT="abc": expected a whole number from 0 to 10000'],
    ["FAULTLINE_MAX_INFLIGHT", "-1", 'invalid FAULTLINE_MAX_INFLIGHT="-1": expected a whole number from 0 to 10000'],
    ["FAULTLINE_BUSY_TIMEOUT_MS", "1.5", 'invalid FAULTLINE_BUSY_TIMEOUT_MS="1.5": expected a whole number from 0 to 600000'],
    ["FAULTLINE_RETENTION_DAYS", "0", 'invalid FAULTLINE_RETENTION_DAYS="0": expected a whole number from 1 to 36500'],
    ["FAULTLINE_DB_PATH", ":memory:", 'invalid FAULTLINE_DB_PATH=":memory:": expected a file path (the server cannot run on :memory:)'],
  ])("refuses %s=%s with one line naming the variable and the accepted range", (name, value, message) => {
    expect(() => parse({ [name]: value })).toThrow(new ConfigError(message));
  });

  it.each([["short"], ["   "], ["fifteen-chars-x"]])("refuses the admin secret %j without echoing it", (secret) => {
    expect(() => parse({ FAULTLINE_ADMIN_SECRET: secret })).toThrow(
      new ConfigError("invalid FAULTLINE_ADMIN_SECRET: expected at least 16 characters (not only spaces); generate one with `openssl rand -base64 24`"),
    );
  });

  it("selects PostgreSQL by URL and refuses anything else without echoing it (it may hold a password)", () => {
    const c = parse({ FAULTLINE_DATABASE_URL: "postgres://fl:pw@db.internal:5432/faultline", FAULTLINE_PG_POOL_MAX: "25" });
    expect([c.databaseUrl, c.pgPoolMax, storeTarget(c)]).toEqual(["postgres://fl:pw@db.internal:5432/faultline", 25, "postgres://fl:pw@db.internal:5432/faultline"]);
    expect(storeTarget(parse({}))).toBe(path.join("/srv/faultline", "data", "faultline.db"));
    expect(() => parse({ FAULTLINE_DATABASE_URL: "mysql://root:hunter2@db/faultline" })).toThrow(
      new ConfigError("invalid FAULTLINE_DATABASE_URL: expected a postgres:// or postgresql:// URL"),
    );
    expect(() => parse({ FAULTLINE_PG_POOL_MAX: "0" })).toThrow(new ConfigError('invalid FAULTLINE_PG_POOL_MAX="0": expected a whole number from 1 to 1000'));
  });

  it("reads the allowed host names lower-cased, without a trailing dot", () => {
    expect(parse({ FAULTLINE_ALLOWED_HOSTS: " Faultline.Example.com., ,10.0.0.5 " }).allowedHosts).toEqual(["faultline.example.com", "10.0.0.5"]);
  });

  it("ignores variables that are not Faultline's", () => {
    expect(parse({ PORT: "abc", NODE_ENV: "production" }).maxInflight).toBe(64);
  });
});
