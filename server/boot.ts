import { ensureDefaultProject } from "@/db/keys";
import { ConfigError, config } from "./config";
import { startDriftJobs } from "./jobs/drift-fold";
import { startRetention } from "./jobs/retention";
import { getStore } from "./store";

/**
 * Server start-up (called once by the instrumentation hook): check the configuration, open the
 * database (which applies migrations), start the background jobs and, on a fresh database, create
 * the default project and print its first key.
 */
export function boot(): void {
  try {
    config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`[faultline] cannot start: ${error.message}`);
    process.exit(1);
  }
  const store = getStore();
  const created = ensureDefaultProject(store);
  startRetention();
  startDriftJobs(store);
  console.log(`[faultline] database ${store.path} ready (migrations applied)`);
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
