-- Indexes no query reads (docs/ingest-performance.md, "Fifth round"): every read finds a run in runs by
-- its id (the runs list walks run_stats' started index), and nothing reads issue_runs by run.
DROP INDEX "runs_project_started_idx";--> statement-breakpoint
DROP INDEX "issue_runs_project_run_idx";
