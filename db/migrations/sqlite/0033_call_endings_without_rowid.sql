-- call_endings_hourly becomes a WITHOUT ROWID table like the other hourly rollups (0027): as a rowid
-- table with a composite key it stored each row twice, in the table and in the key's autoindex
-- (docs/ingest-performance.md, "Fifth round"). The SLO reads scan it by (project, hour) ranges, which a
-- table clustered on its key reads in key order.
CREATE TABLE `__new_call_endings_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`failed` integer NOT NULL,
	`declined` integer NOT NULL,
	`recovered` integer NOT NULL,
	`calls` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `failed`, `declined`, `recovered`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_call_endings_hourly` (`project_id`, `hour`, `tool`, `failed`, `declined`, `recovered`, `calls`) SELECT `project_id`, `hour`, `tool`, `failed`, `declined`, `recovered`, `calls` FROM `call_endings_hourly`;
--> statement-breakpoint
DROP TABLE `call_endings_hourly`;
--> statement-breakpoint
ALTER TABLE `__new_call_endings_hourly` RENAME TO `call_endings_hourly`;
