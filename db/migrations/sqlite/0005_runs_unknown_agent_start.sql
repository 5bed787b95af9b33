PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_runs` (
	`pk` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
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
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_runs`("pk", "project_id", "record_id", "run_id", "agent", "release", "service", "environment", "sdk_name", "sdk_version", "started_at", "ended_at", "state", "deadline_at", "max_tool_attempts", "error", "source", "received_at") SELECT "pk", "project_id", "record_id", "run_id", "agent", "release", "service", "environment", "sdk_name", "sdk_version", "started_at", "ended_at", "state", "deadline_at", "max_tool_attempts", "error", "source", "received_at" FROM `runs`;--> statement-breakpoint
DROP TABLE `runs`;--> statement-breakpoint
ALTER TABLE `__new_runs` RENAME TO `runs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `runs_project_run_uq` ON `runs` (`project_id`,`run_id`);--> statement-breakpoint
CREATE INDEX `runs_project_started_idx` ON `runs` (`project_id`,`started_at`);