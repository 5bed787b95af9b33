CREATE TABLE `run_codes` (
	`project_id` text NOT NULL,
	`code` text NOT NULL,
	`run_id` text NOT NULL,
	`tool` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `code`, `run_id`, `tool`)
);
--> statement-breakpoint
-- The runs list filters by code through this table: fill it (before its index, built once) for the spans and final errors already stored, as ingest now keeps it.
INSERT INTO `run_codes` (`project_id`, `code`, `run_id`, `tool`, `count`)
SELECT `project_id`, `code`, `run_id`, `tool`, count(*) FROM (
  SELECT `project_id`, `code`, `run_id`, `tool` FROM `tool_call_spans` WHERE `code` IS NOT NULL
  UNION ALL
  SELECT `project_id`, `code`, `run_id`, `tool` FROM `tool_errors` WHERE `code` IS NOT NULL
) GROUP BY `project_id`, `code`, `run_id`, `tool`;
--> statement-breakpoint
CREATE INDEX `run_codes_project_run_idx` ON `run_codes` (`project_id`,`run_id`);
