// `npm run keys -- create [name] [--project id] [--read] | list [--project id] | revoke <prefix>`
// `--read` makes a read-only key for the CI gate (`npm run gate`): it reads the gate and the code
// contract of its project and cannot ingest.
// Works on the configured store: FAULTLINE_DATABASE_URL (PostgreSQL) or the SQLite file.
import { openStore, type Store } from "../db/client";
import { ConfigError, config, storeTarget } from "../server/config";
import { createKey, createProject, DEFAULT_PROJECT_ID, listKeys, listProjects, revokeKey } from "../db/keys";

const USAGE = "usage: npm run keys -- create [name] [--project id] [--read] | list [--project id] | revoke <prefix>";

const [command, ...args] = process.argv.slice(2);
const readScope = args.includes("--read");
const rest = args.filter((a) => a !== "--read");
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
      if (!(await listProjects(store)).some((p) => p.id === projectId)) {
        await createProject(store, projectId, projectId === DEFAULT_PROJECT_ID ? "Default project" : projectId);
        console.log(`(created the project ${projectId})`);
      }
      const scope = readScope ? "read" : "ingest";
      const { key, prefix } = await createKey(store, projectId, positional[0] ?? `${scope} key`, scope);
      console.log(`Created ${scope} key ${prefix} for project ${projectId}. It is shown once:\n\n  ${key}\n`);
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
      if (!(await revokeKey(store, prefix))) {
        console.error(`No active key with prefix ${prefix}.`);
        return 1;
      }
      console.log(`Revoked ${prefix}.`);
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
