-- Rollup tables (every table of db/rollups/registry.ts but run_stats, run_codes and call_endings_hourly)
-- and the per-run issue and drift keys become WITHOUT ROWID tables: a rowid table with a composite primary key stores each row twice, once in
-- the table and once in the key's index; clustered on the key, it stores it once (about 67 bytes per
-- span at 1M spans, docs/ingest-performance.md). drizzle-kit cannot declare WITHOUT ROWID: each table is
-- rebuilt here with the columns, key and indexes of the previous migrations, its rows copied.
-- run_stats stays a rowid table: the runs list walks its (project, started) index and looks each row up,
-- by rowid, which is faster than by the (project, run_id) key and costs only about 4 bytes per span.
-- run_codes and call_endings_hourly (new beside this change) are left as they are until measured.
-- test/unit/db/storage-migrations.test.ts fails if a later generated rebuild (or a new rollup) lacks it.
CREATE TABLE `__new_span_rollups_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`outcome` text NOT NULL,
	`error_class` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`spans` integer NOT NULL,
	`first_attempts` integer NOT NULL,
	`second_attempts` integer NOT NULL,
	`retry_attempts` integer NOT NULL,
	`unnumbered` integer DEFAULT 0 NOT NULL,
	`max_attempt` integer NOT NULL,
	`retry_after_count` integer NOT NULL,
	`retry_after_sum_ms` integer NOT NULL,
	`backoff_count` integer NOT NULL,
	`backoff_sum_ms` integer NOT NULL,
	`failed_closed` integer NOT NULL,
	`duration_sum_ms` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `outcome`, `error_class`, `release`, `service`, `environment`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_span_rollups_hourly` (`project_id`, `hour`, `tool`, `code`, `outcome`, `error_class`, `release`, `service`, `environment`, `spans`, `first_attempts`, `second_attempts`, `retry_attempts`, `unnumbered`, `max_attempt`, `retry_after_count`, `retry_after_sum_ms`, `backoff_count`, `backoff_sum_ms`, `failed_closed`, `duration_sum_ms`) SELECT `project_id`, `hour`, `tool`, `code`, `outcome`, `error_class`, `release`, `service`, `environment`, `spans`, `first_attempts`, `second_attempts`, `retry_attempts`, `unnumbered`, `max_attempt`, `retry_after_count`, `retry_after_sum_ms`, `backoff_count`, `backoff_sum_ms`, `failed_closed`, `duration_sum_ms` FROM `span_rollups_hourly`;
--> statement-breakpoint
DROP TABLE `span_rollups_hourly`;
--> statement-breakpoint
ALTER TABLE `__new_span_rollups_hourly` RENAME TO `span_rollups_hourly`;
--> statement-breakpoint
CREATE TABLE `__new_span_rollups_6h` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`outcome` text NOT NULL,
	`error_class` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`spans` integer NOT NULL,
	`first_attempts` integer NOT NULL,
	`second_attempts` integer NOT NULL,
	`retry_attempts` integer NOT NULL,
	`unnumbered` integer DEFAULT 0 NOT NULL,
	`max_attempt` integer NOT NULL,
	`retry_after_count` integer NOT NULL,
	`retry_after_sum_ms` integer NOT NULL,
	`backoff_count` integer NOT NULL,
	`backoff_sum_ms` integer NOT NULL,
	`failed_closed` integer NOT NULL,
	`duration_sum_ms` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `outcome`, `error_class`, `release`, `service`, `environment`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_span_rollups_6h` (`project_id`, `hour`, `tool`, `code`, `outcome`, `error_class`, `release`, `service`, `environment`, `spans`, `first_attempts`, `second_attempts`, `retry_attempts`, `unnumbered`, `max_attempt`, `retry_after_count`, `retry_after_sum_ms`, `backoff_count`, `backoff_sum_ms`, `failed_closed`, `duration_sum_ms`) SELECT `project_id`, `hour`, `tool`, `code`, `outcome`, `error_class`, `release`, `service`, `environment`, `spans`, `first_attempts`, `second_attempts`, `retry_attempts`, `unnumbered`, `max_attempt`, `retry_after_count`, `retry_after_sum_ms`, `backoff_count`, `backoff_sum_ms`, `failed_closed`, `duration_sum_ms` FROM `span_rollups_6h`;
--> statement-breakpoint
DROP TABLE `span_rollups_6h`;
--> statement-breakpoint
ALTER TABLE `__new_span_rollups_6h` RENAME TO `span_rollups_6h`;
--> statement-breakpoint
CREATE TABLE `__new_delay_histograms_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`kind` text NOT NULL,
	`bucket_ms` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `release`, `service`, `environment`, `kind`, `bucket_ms`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_delay_histograms_hourly` (`project_id`, `hour`, `tool`, `code`, `release`, `service`, `environment`, `kind`, `bucket_ms`, `count`) SELECT `project_id`, `hour`, `tool`, `code`, `release`, `service`, `environment`, `kind`, `bucket_ms`, `count` FROM `delay_histograms_hourly`;
--> statement-breakpoint
DROP TABLE `delay_histograms_hourly`;
--> statement-breakpoint
ALTER TABLE `__new_delay_histograms_hourly` RENAME TO `delay_histograms_hourly`;
--> statement-breakpoint
CREATE TABLE `__new_delay_histograms_6h` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`kind` text NOT NULL,
	`bucket_ms` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `release`, `service`, `environment`, `kind`, `bucket_ms`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_delay_histograms_6h` (`project_id`, `hour`, `tool`, `code`, `release`, `service`, `environment`, `kind`, `bucket_ms`, `count`) SELECT `project_id`, `hour`, `tool`, `code`, `release`, `service`, `environment`, `kind`, `bucket_ms`, `count` FROM `delay_histograms_6h`;
--> statement-breakpoint
DROP TABLE `delay_histograms_6h`;
--> statement-breakpoint
ALTER TABLE `__new_delay_histograms_6h` RENAME TO `delay_histograms_6h`;
--> statement-breakpoint
CREATE TABLE `__new_attempt_counts_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`attempt` integer NOT NULL,
	`spans` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `release`, `service`, `environment`, `attempt`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_attempt_counts_hourly` (`project_id`, `hour`, `tool`, `release`, `service`, `environment`, `attempt`, `spans`) SELECT `project_id`, `hour`, `tool`, `release`, `service`, `environment`, `attempt`, `spans` FROM `attempt_counts_hourly`;
--> statement-breakpoint
DROP TABLE `attempt_counts_hourly`;
--> statement-breakpoint
ALTER TABLE `__new_attempt_counts_hourly` RENAME TO `attempt_counts_hourly`;
--> statement-breakpoint
CREATE TABLE `__new_attempt_counts_6h` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`attempt` integer NOT NULL,
	`spans` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `release`, `service`, `environment`, `attempt`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_attempt_counts_6h` (`project_id`, `hour`, `tool`, `release`, `service`, `environment`, `attempt`, `spans`) SELECT `project_id`, `hour`, `tool`, `release`, `service`, `environment`, `attempt`, `spans` FROM `attempt_counts_6h`;
--> statement-breakpoint
DROP TABLE `attempt_counts_6h`;
--> statement-breakpoint
ALTER TABLE `__new_attempt_counts_6h` RENAME TO `attempt_counts_6h`;
--> statement-breakpoint
CREATE TABLE `__new_error_rollups_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`error_class` text NOT NULL,
	`decision` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`errors` integer NOT NULL,
	`attempts_sum` integer NOT NULL,
	`retryable_count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `code`, `error_class`, `decision`, `release`, `service`, `environment`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_error_rollups_hourly` (`project_id`, `hour`, `tool`, `code`, `error_class`, `decision`, `release`, `service`, `environment`, `errors`, `attempts_sum`, `retryable_count`) SELECT `project_id`, `hour`, `tool`, `code`, `error_class`, `decision`, `release`, `service`, `environment`, `errors`, `attempts_sum`, `retryable_count` FROM `error_rollups_hourly`;
--> statement-breakpoint
DROP TABLE `error_rollups_hourly`;
--> statement-breakpoint
ALTER TABLE `__new_error_rollups_hourly` RENAME TO `error_rollups_hourly`;
--> statement-breakpoint
CREATE TABLE `__new_codes` (
	`project_id` text NOT NULL,
	`code` text NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`tool_version` text NOT NULL,
	`error_class` text NOT NULL,
	`retryable` integer NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`spans` integer NOT NULL,
	`errors` integer NOT NULL,
	PRIMARY KEY(`project_id`, `code`, `tool`, `release`, `tool_version`, `error_class`, `retryable`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_codes` (`project_id`, `code`, `tool`, `release`, `tool_version`, `error_class`, `retryable`, `first_seen`, `last_seen`, `spans`, `errors`) SELECT `project_id`, `code`, `tool`, `release`, `tool_version`, `error_class`, `retryable`, `first_seen`, `last_seen`, `spans`, `errors` FROM `codes`;
--> statement-breakpoint
DROP TABLE `codes`;
--> statement-breakpoint
ALTER TABLE `__new_codes` RENAME TO `codes`;
--> statement-breakpoint
CREATE TABLE `__new_conformance_counts` (
	`project_id` text NOT NULL,
	`source` text NOT NULL,
	`spans` integer NOT NULL,
	`no_outcome` integer NOT NULL,
	`non_ok` integer NOT NULL,
	`no_code` integer NOT NULL,
	`no_attempt` integer NOT NULL,
	`no_release` integer NOT NULL,
	PRIMARY KEY(`project_id`, `source`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_conformance_counts` (`project_id`, `source`, `spans`, `no_outcome`, `non_ok`, `no_code`, `no_attempt`, `no_release`) SELECT `project_id`, `source`, `spans`, `no_outcome`, `non_ok`, `no_code`, `no_attempt`, `no_release` FROM `conformance_counts`;
--> statement-breakpoint
DROP TABLE `conformance_counts`;
--> statement-breakpoint
ALTER TABLE `__new_conformance_counts` RENAME TO `conformance_counts`;
--> statement-breakpoint
CREATE TABLE `__new_run_tools` (
	`project_id` text NOT NULL,
	`tool` text NOT NULL,
	`run_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `tool`, `run_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_run_tools` (`project_id`, `tool`, `run_id`) SELECT `project_id`, `tool`, `run_id` FROM `run_tools`;
--> statement-breakpoint
DROP TABLE `run_tools`;
--> statement-breakpoint
ALTER TABLE `__new_run_tools` RENAME TO `run_tools`;
--> statement-breakpoint
CREATE TABLE `__new_emitter_counts` (
	`project_id` text NOT NULL,
	`service` text NOT NULL,
	`convention` text NOT NULL,
	`spans` integer NOT NULL,
	`no_call_id` integer NOT NULL,
	`no_run_id` integer NOT NULL,
	`no_attempt` integer NOT NULL,
	`no_outcome` integer NOT NULL,
	`non_ok` integer NOT NULL,
	`no_code` integer NOT NULL,
	`no_error_class` integer NOT NULL,
	`no_message` integer NOT NULL,
	`no_release` integer NOT NULL,
	`last_seen` integer NOT NULL, `derived_call_id` integer DEFAULT 0 NOT NULL, `derived_run_id` integer DEFAULT 0 NOT NULL, `derived_attempt` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `service`, `convention`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_emitter_counts` (`project_id`, `service`, `convention`, `spans`, `no_call_id`, `no_run_id`, `no_attempt`, `no_outcome`, `non_ok`, `no_code`, `no_error_class`, `no_message`, `no_release`, `last_seen`, `derived_call_id`, `derived_run_id`, `derived_attempt`) SELECT `project_id`, `service`, `convention`, `spans`, `no_call_id`, `no_run_id`, `no_attempt`, `no_outcome`, `non_ok`, `no_code`, `no_error_class`, `no_message`, `no_release`, `last_seen`, `derived_call_id`, `derived_run_id`, `derived_attempt` FROM `emitter_counts`;
--> statement-breakpoint
DROP TABLE `emitter_counts`;
--> statement-breakpoint
ALTER TABLE `__new_emitter_counts` RENAME TO `emitter_counts`;
--> statement-breakpoint
CREATE TABLE `__new_emitter_drops` (
	`project_id` text NOT NULL,
	`service` text NOT NULL,
	`convention` text NOT NULL,
	`reason` text NOT NULL,
	`attribute` text NOT NULL,
	`spans` integer NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`project_id`, `service`, `convention`, `reason`, `attribute`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_emitter_drops` (`project_id`, `service`, `convention`, `reason`, `attribute`, `spans`, `last_seen`) SELECT `project_id`, `service`, `convention`, `reason`, `attribute`, `spans`, `last_seen` FROM `emitter_drops`;
--> statement-breakpoint
DROP TABLE `emitter_drops`;
--> statement-breakpoint
ALTER TABLE `__new_emitter_drops` RENAME TO `emitter_drops`;
--> statement-breakpoint
CREATE TABLE `__new_told_step_counts` (
	`project_id` text NOT NULL,
	`tool` text NOT NULL,
	`code` text NOT NULL,
	`release` text NOT NULL,
	`shape` text NOT NULL,
	`step` text NOT NULL,
	`run_state` text NOT NULL,
	`calls` integer NOT NULL,
	`errors` integer NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`project_id`, `tool`, `code`, `release`, `shape`, `step`, `run_state`, `calls`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_told_step_counts` (`project_id`, `tool`, `code`, `release`, `shape`, `step`, `run_state`, `calls`, `errors`, `first_seen`, `last_seen`) SELECT `project_id`, `tool`, `code`, `release`, `shape`, `step`, `run_state`, `calls`, `errors`, `first_seen`, `last_seen` FROM `told_step_counts`;
--> statement-breakpoint
DROP TABLE `told_step_counts`;
--> statement-breakpoint
ALTER TABLE `__new_told_step_counts` RENAME TO `told_step_counts`;
--> statement-breakpoint
CREATE TABLE `__new_issue_runs` (
	`project_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`run_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `issue_id`, `run_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_issue_runs` (`project_id`, `issue_id`, `run_id`) SELECT `project_id`, `issue_id`, `run_id` FROM `issue_runs`;
--> statement-breakpoint
DROP TABLE `issue_runs`;
--> statement-breakpoint
ALTER TABLE `__new_issue_runs` RENAME TO `issue_runs`;
--> statement-breakpoint
CREATE INDEX `issue_runs_project_run_idx` ON `issue_runs` (`project_id`,`run_id`);
--> statement-breakpoint
CREATE TABLE `__new_issue_hours` (
	`project_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`hour` integer NOT NULL,
	`failures` integer NOT NULL,
	PRIMARY KEY(`project_id`, `issue_id`, `hour`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_issue_hours` (`project_id`, `issue_id`, `hour`, `failures`) SELECT `project_id`, `issue_id`, `hour`, `failures` FROM `issue_hours`;
--> statement-breakpoint
DROP TABLE `issue_hours`;
--> statement-breakpoint
ALTER TABLE `__new_issue_hours` RENAME TO `issue_hours`;
--> statement-breakpoint
CREATE TABLE `__new_issue_releases` (
	`project_id` text NOT NULL,
	`issue_id` text NOT NULL,
	`release` text NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`failures` integer NOT NULL,
	PRIMARY KEY(`project_id`, `issue_id`, `release`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_issue_releases` (`project_id`, `issue_id`, `release`, `first_seen`, `last_seen`, `failures`) SELECT `project_id`, `issue_id`, `release`, `first_seen`, `last_seen`, `failures` FROM `issue_releases`;
--> statement-breakpoint
DROP TABLE `issue_releases`;
--> statement-breakpoint
ALTER TABLE `__new_issue_releases` RENAME TO `issue_releases`;
--> statement-breakpoint
CREATE TABLE `__new_drift_calls` (
	`project_id` text NOT NULL,
	`run_id` text NOT NULL,
	`call_id` text NOT NULL,
	`code` text NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`attempt` integer,
	`started_at` integer NOT NULL,
	`recovered` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `run_id`, `call_id`, `code`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_drift_calls` (`project_id`, `run_id`, `call_id`, `code`, `tool`, `release`, `attempt`, `started_at`, `recovered`) SELECT `project_id`, `run_id`, `call_id`, `code`, `tool`, `release`, `attempt`, `started_at`, `recovered` FROM `drift_calls`;
--> statement-breakpoint
DROP TABLE `drift_calls`;
--> statement-breakpoint
ALTER TABLE `__new_drift_calls` RENAME TO `drift_calls`;
--> statement-breakpoint
CREATE TABLE `__new_drift_counts` (
	`project_id` text NOT NULL,
	`code` text NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`basis` text NOT NULL,
	`dim` text NOT NULL,
	`value` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`project_id`, `code`, `tool`, `release`, `basis`, `dim`, `value`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_drift_counts` (`project_id`, `code`, `tool`, `release`, `basis`, `dim`, `value`, `count`) SELECT `project_id`, `code`, `tool`, `release`, `basis`, `dim`, `value`, `count` FROM `drift_counts`;
--> statement-breakpoint
DROP TABLE `drift_counts`;
--> statement-breakpoint
ALTER TABLE `__new_drift_counts` RENAME TO `drift_counts`;
