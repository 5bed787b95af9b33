// `npm run keys -- create [name] [--project id] | list [--project id] | revoke <prefix>`
import { openStore } from "../db/client";
import { ConfigError, config } from "../server/config";
import { createKey, createProject, DEFAULT_PROJECT_ID, listKeys, listProjects, revokeKey } from "../db/keys";

const [command, ...rest] = process.argv.slice(2);
const projectFlag = rest.indexOf("--project");
const projectId = projectFlag >= 0 ? rest[projectFlag + 1] ?? DEFAULT_PROJECT_ID : DEFAULT_PROJECT_ID;
const positional = projectFlag >= 0 ? rest.filter((_, i) => i !== projectFlag && i !== projectFlag + 1) : rest;

function openConfigured() {
  try {
    const c = config();
    return openStore(c.dbPath, { busyTimeoutMs: c.busyTimeoutMs });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`cannot open the database: ${error.message}`);
    process.exit(2);
  }
}

const store = openConfigured();
const fmt = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString());

switch (command) {
  case "create": {
    if (!listProjects(store).some((p) => p.id === projectId)) {
      createProject(store, projectId, projectId === DEFAULT_PROJECT_ID ? "Default project" : projectId);
      console.log(`(created the project ${projectId})`);
    }
    const { key, prefix } = createKey(store, projectId, positional[0] ?? "ingest key");
    console.log(`Created key ${prefix} for project ${projectId}. It is shown once:\n\n  ${key}\n`);
    break;
  }
  case "list": {
    const keys = listKeys(store, projectId);
    if (keys.length === 0) console.log(`No keys for project ${projectId}.`);
    for (const k of keys) {
      const state = k.revokedAt === null ? "active " : "revoked";
      console.log(`${k.prefix}  ${state}  created ${fmt(k.createdAt)}  last used ${fmt(k.lastUsedAt)}  ${k.name}`);
    }
    break;
  }
  case "revoke": {
    const prefix = positional[0];
    if (!prefix) {
      console.error("usage: npm run keys -- revoke <prefix>");
      process.exit(2);
    }
    if (!revokeKey(store, prefix)) {
      console.error(`No active key with prefix ${prefix}.`);
      process.exit(1);
    }
    console.log(`Revoked ${prefix}.`);
    break;
  }
  default:
    console.error("usage: npm run keys -- create [name] [--project id] | list [--project id] | revoke <prefix>");
    process.exit(2);
}
store.sqlite.close();
