-- The run index without started_at: every read of a run's spans is by equality and the timeline sorts
-- them itself; on PostgreSQL the repeated (project, run) key deduplicates (docs/ingest-performance.md).
DROP INDEX `spans_project_run_idx`;--> statement-breakpoint
CREATE INDEX `spans_project_run_idx` ON `tool_call_spans` (`project_id`,`run_id`);