-- runs keyed by (project, run_id) without its serial `pk`, which nothing reads; on SQLite clustered on
-- that key (WITHOUT ROWID, hand-added: drizzle-kit cannot declare it): every read and the ingest upsert
-- find a run by its key, in one seek where the rowid table took the key's index and then the row, and
-- the key is no longer stored twice (docs/ingest-performance.md, "Fifth round").
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_runs` (
	`project_id` text NOT NULL,
	`record_id` text NOT NULL,
	`run_id` text NOT NULL,
	`agent` text,
	`release` text,
	`service` text,
	`environment` text,
	`sdk_name` text,
	`sdk_version` text,
	`started_at` integer,
	`ended_at` integer,
	`state` text NOT NULL,
	`deadline_at` integer,
	`max_tool_attempts` integer,
	`error` text,
	`source` text DEFAULT 'native' NOT NULL,
	`received_at` integer NOT NULL,
	`unanswered_tool_uses` integer,
	`trace_id` text,
	`span_id` text,
	PRIMARY KEY(`project_id`, `run_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_runs`("project_id", "record_id", "run_id", "agent", "release", "service", "environment", "sdk_name", "sdk_version", "started_at", "ended_at", "state", "deadline_at", "max_tool_attempts", "error", "source", "received_at", "unanswered_tool_uses", "trace_id", "span_id") SELECT "project_id", "record_id", "run_id", "agent", "release", "service", "environment", "sdk_name", "sdk_version", "started_at", "ended_at", "state", "deadline_at", "max_tool_attempts", "error", "source", "received_at", "unanswered_tool_uses", "trace_id", "span_id" FROM `runs`;--> statement-breakpoint
DROP TABLE `runs`;--> statement-breakpoint
ALTER TABLE `__new_runs` RENAME TO `runs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `runs_project_unanswered_idx` ON `runs` (`project_id`,`run_id`) WHERE "runs"."unanswered_tool_uses" > 0;