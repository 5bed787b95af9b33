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
      maxInflightPerKey: 32,
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
      smtp: null,
      publicUrl: "",
      oidc: null,
      sessionTtlMs: 168 * 3_600_000,
    });
  });

  it("reads set values and treats empty ones as unset", () => {
    const c = parse({ FAULTLINE_DB_PATH: "/var/lib/fl.db", FAULTLINE_MAX_INFLIGHT: " 8 ", FAULTLINE_RETENTION_DAYS: "", FAULTLINE_ADMIN_SECRET: "s3cret-s3cret-s3cret" });
    expect([c.dbPath, c.maxInflight, c.retentionDays, c.adminSecret]).toEqual(["/var/lib/fl.db", 8, 30, "s3cret-s3cret-s3cret"]);
    // Sessions may be shortened to seconds (fractions of an hour), as the session-expiry tests do.
    expect(parse({ FAULTLINE_SESSION_TTL_HOURS: "0.002" }).sessionTtlMs).toBe(7200);
  });

  it.each([
    ["FAULTLINE_MAX_INFLIGHT", "abc", 'invalid FAULTLINE_MAX_INFLIGHT="abc": expected a whole number from 0 to 10000'],
    ["FAULTLINE_MAX_INFLIGHT", "-1", 'invalid FAULTLINE_MAX_INFLIGHT="-1": expected a whole number from 0 to 10000'],
    ["FAULTLINE_BUSY_TIMEOUT_MS", "1.5", 'invalid FAULTLINE_BUSY_TIMEOUT_MS="1.5": expected a whole number from 0 to 600000'],
    ["FAULTLINE_RETENTION_DAYS", "0", 'invalid FAULTLINE_RETENTION_DAYS="0": expected a whole number from 1 to 36500'],
    ["FAULTLINE_SESSION_TTL_HOURS", "0", 'invalid FAULTLINE_SESSION_TTL_HOURS="0": expected a number from 0.001 to 8760'],
    ["FAULTLINE_SESSION_TTL_HOURS", "1e3", 'invalid FAULTLINE_SESSION_TTL_HOURS="1e3": expected a number from 0.001 to 8760'],
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

  it("reads the SMTP server of email receivers, its sender defaulting to the SMTP host, and refuses another scheme without echoing it (it may hold a password)", () => {
    expect(parse({ FAULTLINE_SMTP_URL: "smtp://alerts:pw@smtp.example.com:587" }).smtp).toEqual({ url: "smtp://alerts:pw@smtp.example.com:587", from: "faultline@smtp.example.com" });
    expect(parse({ FAULTLINE_SMTP_URL: "smtps://smtp.example.com", FAULTLINE_SMTP_FROM: "oncall@example.com" }).smtp).toEqual({ url: "smtps://smtp.example.com", from: "oncall@example.com" });
    expect(() => parse({ FAULTLINE_SMTP_URL: "http://alerts:pw@smtp.example.com" })).toThrow(
      new ConfigError("invalid FAULTLINE_SMTP_URL: expected an smtp:// or smtps:// URL (smtp://user:password@host:port)"),
    );
    expect(() => parse({ FAULTLINE_SMTP_URL: "smtp://h", FAULTLINE_SMTP_FROM: "not an address" })).toThrow(new ConfigError('invalid FAULTLINE_SMTP_FROM="not an address": expected an e-mail address'));
  });

  it("reads the allowed host names lower-cased, without a trailing dot", () => {
    expect(parse({ FAULTLINE_ALLOWED_HOSTS: " Faultline.Example.com., ,10.0.0.5 " }).allowedHosts).toEqual(["faultline.example.com", "10.0.0.5"]);
  });

  it("ignores variables that are not Faultline's", () => {
    expect(parse({ PORT: "abc", NODE_ENV: "production" }).maxInflight).toBe(64);
  });

  describe("single sign-on", () => {
    const sso = { FAULTLINE_OIDC_ISSUER: "https://idp.example/realms/team", FAULTLINE_OIDC_CLIENT_ID: "faultline", FAULTLINE_OIDC_CLIENT_SECRET: "s3cret value" };

    it("is off when no FAULTLINE_OIDC_* variable is set (or only empty ones)", () => {
      expect(parse({ FAULTLINE_OIDC_ISSUER: "", FAULTLINE_OIDC_LABEL: " " }).oidc).toBeNull();
    });

    it("takes the issuer, client and secret, with a viewer role in the default project under a generic label by default", () => {
      expect(parse(sso).oidc).toEqual({
        issuer: "https://idp.example/realms/team",
        clientId: "faultline",
        clientSecret: "s3cret value",
        defaultRole: "viewer",
        defaultProject: "default",
        label: "single sign-on",
      });
    });

    it("reads the default role, project and label", () => {
      const c = parse({ ...sso, FAULTLINE_OIDC_DEFAULT_ROLE: "member", FAULTLINE_OIDC_DEFAULT_PROJECT: "team-a", FAULTLINE_OIDC_LABEL: " Okta " });
      expect([c.oidc?.defaultRole, c.oidc?.defaultProject, c.oidc?.label]).toEqual(["member", "team-a", "Okta"]);
    });

    it.each([
      ["FAULTLINE_OIDC_ISSUER"],
      ["FAULTLINE_OIDC_CLIENT_ID"],
      ["FAULTLINE_OIDC_CLIENT_SECRET"],
    ] as const)("refuses a configuration without %s, naming it", (name) => {
      const env: Record<string, string> = { ...sso };
      delete env[name];
      const set = Object.keys(env).sort().join(", ");
      expect(() => parse(env)).toThrow(
        new ConfigError(
          `${name} is missing: single sign-on needs FAULTLINE_OIDC_ISSUER, FAULTLINE_OIDC_CLIENT_ID, FAULTLINE_OIDC_CLIENT_SECRET together (set: ${set}); set it, or unset the others to turn single sign-on off`,
        ),
      );
    });

    it("refuses a refinement without the rest", () => {
      expect(() => parse({ FAULTLINE_OIDC_LABEL: "Okta" })).toThrow(
        new ConfigError(
          "FAULTLINE_OIDC_ISSUER is missing: single sign-on needs FAULTLINE_OIDC_ISSUER, FAULTLINE_OIDC_CLIENT_ID, FAULTLINE_OIDC_CLIENT_SECRET together (set: FAULTLINE_OIDC_LABEL); set it, or unset the others to turn single sign-on off",
        ),
      );
    });

    it.each([
      ["FAULTLINE_OIDC_ISSUER", "http://idp.example", 'invalid FAULTLINE_OIDC_ISSUER="http://idp.example": expected an https:// issuer URL (http:// only on loopback, for a local test provider)'],
      ["FAULTLINE_OIDC_ISSUER", "idp.example", 'invalid FAULTLINE_OIDC_ISSUER="idp.example": expected an https:// issuer URL (http:// only on loopback, for a local test provider)'],
      ["FAULTLINE_OIDC_ISSUER", "https://idp.example/?tenant=a", 'invalid FAULTLINE_OIDC_ISSUER="https://idp.example/?tenant=a": expected an https:// issuer URL (http:// only on loopback, for a local test provider)'],
      ["FAULTLINE_OIDC_DEFAULT_ROLE", "owner", 'invalid FAULTLINE_OIDC_DEFAULT_ROLE="owner": expected viewer, member or admin'],
      ["FAULTLINE_OIDC_DEFAULT_PROJECT", "a b", 'invalid FAULTLINE_OIDC_DEFAULT_PROJECT="a b": expected a project id'],
      ["FAULTLINE_OIDC_LABEL", "x".repeat(61), `invalid FAULTLINE_OIDC_LABEL="${"x".repeat(61)}": expected a name of at most 60 characters`],
    ])("refuses %s=%s", (name, value, message) => {
      expect(() => parse({ ...sso, [name]: value })).toThrow(new ConfigError(message));
    });

    it("accepts plain HTTP for an issuer on loopback only", () => {
      for (const issuer of ["http://127.0.0.1:4000", "http://localhost:4000/oidc", "http://[::1]:4000"]) expect(parse({ ...sso, FAULTLINE_OIDC_ISSUER: issuer }).oidc?.issuer).toBe(issuer);
    });
  });
});
