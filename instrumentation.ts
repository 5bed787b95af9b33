// Runs once when the server starts: check the configuration, open the database (which applies
// migrations), start the background jobs and, on a fresh database, create the default project and
// print its first key.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { ConfigError, config } = await import("./server/config");
  try {
    config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`[faultline] cannot start: ${error.message}`);
    process.exit(1);
  }
  const { getStore } = await import("./server/store");
  const { ensureDefaultProject } = await import("./db/keys");
  const { startRetention } = await import("./server/jobs/retention");
  const { startDriftJobs } = await import("./server/jobs/drift-fold");
  const store = getStore();
  startRetention(store);
  startDriftJobs(store);
  const created = ensureDefaultProject(store);
  console.log(`[faultline] database ${store.path} ready (migrations applied)`);
  if (created) {
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
}
