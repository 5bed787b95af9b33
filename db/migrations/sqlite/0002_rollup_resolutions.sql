CREATE TABLE `span_rollups_6h` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`outcome` text NOT NULL,
	`error_class` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`spans` integer NOT NULL,
	`first_attempts` integer NOT NULL,
	`second_attempts` integer NOT NULL,
	`retry_attempts` integer NOT NULL,
	`max_attempt` integer NOT NULL,
	`retry_after_count` integer NOT NULL,
	`retry_after_sum_ms` integer NOT NULL,
	`backoff_count` integer NOT NULL,
	`backoff_sum_ms` integer NOT NULL,
	`failed_closed` integer NOT NULL,
	`duration_sum_ms` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `outcome`, `error_class`, `release`, `service`)
);
--> statement-breakpoint
CREATE TABLE `delay_histograms_6h` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`kind` text NOT NULL,
	`bucket_ms` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `release`, `service`, `kind`, `bucket_ms`)
);
--> statement-breakpoint
CREATE TABLE `attempt_counts_6h` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`attempt` integer NOT NULL,
	`spans` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `release`, `service`, `attempt`)
);
--> statement-breakpoint
CREATE TABLE `attempt_counts_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`attempt` integer NOT NULL,
	`spans` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `release`, `service`, `attempt`)
);
--> statement-breakpoint
DROP INDEX `span_rollups_project_tool_hour_idx`;--> statement-breakpoint
-- Backfill: databases created before this migration get their six-hourly rollups and attempt counts.
INSERT INTO `span_rollups_6h` SELECT `project_id`, (`hour` / 21600000) * 21600000, `tool`, `code`, `outcome`, `error_class`, `release`, `service`,
  sum(`spans`), sum(`first_attempts`), sum(`second_attempts`), sum(`retry_attempts`), max(`max_attempt`), sum(`retry_after_count`),
  sum(`retry_after_sum_ms`), sum(`backoff_count`), sum(`backoff_sum_ms`), sum(`failed_closed`), sum(`duration_sum_ms`)
  FROM `span_rollups_hourly` GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
--> statement-breakpoint
INSERT INTO `delay_histograms_6h` SELECT `project_id`, (`hour` / 21600000) * 21600000, `tool`, `code`, `release`, `service`, `kind`, `bucket_ms`, sum(`count`)
  FROM `delay_histograms_hourly` GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
--> statement-breakpoint
INSERT INTO `attempt_counts_hourly` SELECT `project_id`, (`started_at` / 3600000) * 3600000, `tool`, coalesce(`release`, ''), coalesce(`service`, ''), `attempt`, count(*)
  FROM `tool_call_spans` WHERE `attempt` IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO `attempt_counts_6h` SELECT `project_id`, (`hour` / 21600000) * 21600000, `tool`, `release`, `service`, `attempt`, sum(`spans`)
  FROM `attempt_counts_hourly` GROUP BY 1, 2, 3, 4, 5, 6;
