ALTER TABLE "run_stats" ADD COLUMN "agent" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "run_stats" ADD COLUMN "release" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Runs whose record never arrived show the agent (service) and release of their spans: fill both for
-- the runs already stored, as ingest now keeps them (the greatest value, as its upsert does).
UPDATE run_stats SET
  agent = coalesce((SELECT max(t.service) FROM tool_call_spans t WHERE t.project_id = run_stats.project_id AND t.run_id = run_stats.run_id), ''),
  release = coalesce((SELECT max(t.release) FROM tool_call_spans t WHERE t.project_id = run_stats.project_id AND t.run_id = run_stats.run_id), '')
WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.project_id = run_stats.project_id AND r.run_id = run_stats.run_id);
