// `npm run keys -- create [name] [--project id] [--read] | list [--project id] | revoke <prefix>`
// `--read` makes a read-only key for the CI gate (`npm run gate`): it reads the gate and the code
// contract of its project and cannot ingest.
// `npm run keys -- setup-link [--url http://host:port]` prints a new one-time link that creates an
// instance owner, or restores one whose password is lost; `users`, `disable-user <email>` and
// `enable-user <email>` manage accounts from the host when nobody can sign in.
// Works on the configured store: FAULTLINE_DATABASE_URL (PostgreSQL) or the SQLite file. Every
// change is in the audit log like the dashboard's, with the actor `cli`.
import { CLI_ACTOR } from "../db/audit/audit-actor";
import { openStore, type Store } from "../db/client";
import { DEFAULT_PROJECT_ID, findKey, listKeys, projectExists } from "../db/keys";
import { createKeyAs } from "../db/projects/create-key-as";
import { createProjectAs } from "../db/projects/create-project-as";
import { revokeKeyAs } from "../db/projects/revoke-key-as";
import { ConfigError, config, storeTarget } from "../server/config";
import { auditedChange } from "../db/audit/audited-change";
import { deleteUserSessions } from "../db/auth/sessions";
import { findUserByEmail, listUsers, setUserDisabled } from "../db/auth/users";
import { dashboardBaseUrl, issueSetupLink } from "../server/auth/setup-link";

const USAGE =
  "usage: npm run keys -- create [name] [--project id] [--read] | list [--project id] | revoke <prefix> | setup-link [--url http://host:port] | users | disable-user <email> | enable-user <email>";

const [command, ...args] = process.argv.slice(2);
const readScope = args.includes("--read");
const urlFlag = args.indexOf("--url");
const baseUrl = urlFlag >= 0 ? args[urlFlag + 1] : undefined;
const rest = args.filter((a, i) => a !== "--read" && i !== urlFlag && (urlFlag < 0 || i !== urlFlag + 1));
const projectFlag = rest.indexOf("--project");
const projectId = projectFlag >= 0 ? rest[projectFlag + 1] ?? DEFAULT_PROJECT_ID : DEFAULT_PROJECT_ID;
const positional = projectFlag >= 0 ? rest.filter((_, i) => i !== projectFlag && i !== projectFlag + 1) : rest;

async function openConfigured(): Promise<Store> {
  try {
    const c = config();
    return await openStore(storeTarget(c), { busyTimeoutMs: c.busyTimeoutMs, poolMax: 1 });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`cannot open the database: ${error.message}`);
    process.exit(2);
  }
}

const fmt = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString());

/** Runs one command; returns the exit code. */
async function run(store: Store): Promise<number> {
  switch (command) {
    case "create": {
      if (!(await projectExists(store, projectId))) {
        const name = projectId === DEFAULT_PROJECT_ID ? "Default project" : projectId;
        if (await createProjectAs(store, { id: projectId, name }, CLI_ACTOR, Date.now())) console.log(`(created the project ${projectId})`);
      }
      const scope = readScope ? "read" : "ingest";
      const created = await createKeyAs(store, projectId, { name: positional[0] ?? `${scope} key`, scope }, CLI_ACTOR, Date.now());
      if (!created) {
        console.error(`Project ${projectId} is archived: restore it (Settings → Projects) before creating keys.`);
        return 1;
      }
      console.log(`Created ${scope} key ${created.prefix} for project ${projectId}. It is shown once:\n\n  ${created.key}\n`);
      return 0;
    }
    case "list": {
      const keys = await listKeys(store, projectId);
      if (keys.length === 0) console.log(`No keys for project ${projectId}.`);
      for (const k of keys) {
        const state = k.revokedAt === null ? "active " : "revoked";
        console.log(`${k.prefix}  ${state}  ${k.scope.padEnd(6)}  created ${fmt(k.createdAt)}  last used ${fmt(k.lastUsedAt)}  ${k.name}`);
      }
      return 0;
    }
    case "revoke": {
      const prefix = positional[0];
      if (!prefix) {
        console.error("usage: npm run keys -- revoke <prefix>");
        return 2;
      }
      const key = await findKey(store, prefix);
      if (!key || (await revokeKeyAs(store, key.projectId, prefix, CLI_ACTOR, Date.now())).result !== "revoked") {
        console.error(`No active key with prefix ${prefix}.`);
        return 1;
      }
      console.log(`Revoked ${prefix}.`);
      return 0;
    }
    case "setup-link": {
      if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+/i.test(baseUrl)) {
        console.error("usage: npm run keys -- setup-link [--url http://host:port] (the address people open the dashboard by)");
        return 2;
      }
      const c = config();
      const base = baseUrl ?? dashboardBaseUrl({ publicUrl: c.publicUrl, allowedHosts: c.allowedHosts, address: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
      const { url, expiresAt } = await issueSetupLink(store, base);
      console.log(`One-time setup link (valid until ${fmt(expiresAt)}): it creates an instance owner, or restores the account of an email that has one.\n\n  ${url}\n`);
      return 0;
    }
    case "users": {
      const users = await listUsers(store);
      if (users.length === 0) console.log("No accounts yet: open a setup link (`npm run keys -- setup-link`).");
      for (const u of users) console.log(`${u.email}  ${u.disabledAt === null ? "enabled " : "disabled"}  ${u.instanceOwner ? "instance owner" : "member        "}  created ${fmt(u.createdAt)}  ${u.name}`);
      return 0;
    }
    case "disable-user":
    case "enable-user": {
      const user = positional[0] ? await findUserByEmail(store, positional[0]) : null;
      if (!user) {
        console.error(positional[0] ? `No account with the email ${positional[0]}.` : `usage: npm run keys -- ${command} <email>`);
        return positional[0] ? 1 : 2;
      }
      const disabling = command === "disable-user";
      const now = Date.now();
      await auditedChange(store, CLI_ACTOR, now, async (tx) => {
        await setUserDisabled(tx, user.id, disabling ? now : null);
        // A disabled account's sessions would be refused anyway; ending them keeps a later enable from reviving them.
        if (disabling) await deleteUserSessions(tx, user.id);
        return { result: null, audit: { projectId: null, action: disabling ? "user.disabled" : "user.enabled", target: user.email, detail: { userId: user.id } } };
      });
      console.log(`${disabling ? "Disabled" : "Enabled"} ${user.email}.`);
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

const store = await openConfigured();
try {
  process.exitCode = await run(store);
} finally {
  await store.close();
}
