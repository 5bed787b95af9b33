-- The rollups gain an `environment` key (issue 17: the environment filter). Each table is rebuilt:
-- periods from the first whole period of the raw rows on are recounted from the raw rows, split by
-- environment, exactly as ingest counts them (a period the rollup retention already dropped comes back until the next sweep);
-- older periods (raw rows already pruned) are copied with environment '' (unknown), as rows without one are stored.
ALTER TABLE `span_rollups_hourly` RENAME TO `span_rollups_hourly__pre_env`;
--> statement-breakpoint
CREATE TABLE `span_rollups_hourly` (
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
);
--> statement-breakpoint
INSERT INTO `span_rollups_hourly` (project_id, hour, tool, code, outcome, error_class, release, service, environment, spans, first_attempts, second_attempts, retry_attempts, unnumbered, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, failed_closed, duration_sum_ms) SELECT project_id, hour, tool, code, outcome, error_class, release, service, '', spans, first_attempts, second_attempts, retry_attempts, unnumbered, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, failed_closed, duration_sum_ms FROM `span_rollups_hourly__pre_env` WHERE hour < (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 3600000) * 3600000 + 3600000 END FROM `tool_call_spans`);
--> statement-breakpoint
INSERT INTO `span_rollups_hourly` (project_id, hour, tool, code, outcome, error_class, release, service, environment, spans, first_attempts, second_attempts, retry_attempts, unnumbered, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, failed_closed, duration_sum_ms) SELECT project_id, (started_at / 3600000) * 3600000, tool, coalesce(code, ''), coalesce(outcome, ''), coalesce(error_class, ''), coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), count(*), sum(CASE WHEN attempt = 1 THEN 1 ELSE 0 END), sum(CASE WHEN attempt = 2 THEN 1 ELSE 0 END), sum(CASE WHEN attempt > 1 THEN 1 ELSE 0 END), sum(CASE WHEN attempt IS NULL THEN 1 ELSE 0 END), max(coalesce(attempt, 0)), count(retry_after_ms), coalesce(sum(retry_after_ms), 0), count(backoff_ms), coalesce(sum(backoff_ms), 0), sum(CASE WHEN decision = 'failed_closed' THEN 1 ELSE 0 END), sum(CASE WHEN ended_at > started_at THEN ended_at - started_at ELSE 0 END) FROM `tool_call_spans` WHERE started_at >= (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 3600000) * 3600000 + 3600000 END FROM `tool_call_spans`) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
--> statement-breakpoint
DROP TABLE `span_rollups_hourly__pre_env`;
--> statement-breakpoint
ALTER TABLE `span_rollups_6h` RENAME TO `span_rollups_6h__pre_env`;
--> statement-breakpoint
CREATE TABLE `span_rollups_6h` (
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
);
--> statement-breakpoint
INSERT INTO `span_rollups_6h` (project_id, hour, tool, code, outcome, error_class, release, service, environment, spans, first_attempts, second_attempts, retry_attempts, unnumbered, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, failed_closed, duration_sum_ms) SELECT project_id, hour, tool, code, outcome, error_class, release, service, '', spans, first_attempts, second_attempts, retry_attempts, unnumbered, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, failed_closed, duration_sum_ms FROM `span_rollups_6h__pre_env` WHERE hour < (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 21600000) * 21600000 + 21600000 END FROM `tool_call_spans`);
--> statement-breakpoint
INSERT INTO `span_rollups_6h` (project_id, hour, tool, code, outcome, error_class, release, service, environment, spans, first_attempts, second_attempts, retry_attempts, unnumbered, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, failed_closed, duration_sum_ms) SELECT project_id, (started_at / 21600000) * 21600000, tool, coalesce(code, ''), coalesce(outcome, ''), coalesce(error_class, ''), coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), count(*), sum(CASE WHEN attempt = 1 THEN 1 ELSE 0 END), sum(CASE WHEN attempt = 2 THEN 1 ELSE 0 END), sum(CASE WHEN attempt > 1 THEN 1 ELSE 0 END), sum(CASE WHEN attempt IS NULL THEN 1 ELSE 0 END), max(coalesce(attempt, 0)), count(retry_after_ms), coalesce(sum(retry_after_ms), 0), count(backoff_ms), coalesce(sum(backoff_ms), 0), sum(CASE WHEN decision = 'failed_closed' THEN 1 ELSE 0 END), sum(CASE WHEN ended_at > started_at THEN ended_at - started_at ELSE 0 END) FROM `tool_call_spans` WHERE started_at >= (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 21600000) * 21600000 + 21600000 END FROM `tool_call_spans`) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
--> statement-breakpoint
DROP TABLE `span_rollups_6h__pre_env`;
--> statement-breakpoint
ALTER TABLE `delay_histograms_hourly` RENAME TO `delay_histograms_hourly__pre_env`;
--> statement-breakpoint
CREATE TABLE `delay_histograms_hourly` (
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
);
--> statement-breakpoint
INSERT INTO `delay_histograms_hourly` (project_id, hour, tool, code, release, service, environment, kind, bucket_ms, count) SELECT project_id, hour, tool, code, release, service, '', kind, bucket_ms, count FROM `delay_histograms_hourly__pre_env` WHERE hour < (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 3600000) * 3600000 + 3600000 END FROM `tool_call_spans`);
--> statement-breakpoint
INSERT INTO `delay_histograms_hourly` (project_id, hour, tool, code, release, service, environment, kind, bucket_ms, count) SELECT project_id, (started_at / 3600000) * 3600000, tool, coalesce(code, ''), coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), 'retry_after', CASE WHEN retry_after_ms <= 0 THEN 0 WHEN retry_after_ms <= 50 THEN 50 WHEN retry_after_ms <= 100 THEN 100 WHEN retry_after_ms <= 250 THEN 250 WHEN retry_after_ms <= 500 THEN 500 WHEN retry_after_ms <= 1000 THEN 1000 WHEN retry_after_ms <= 2000 THEN 2000 WHEN retry_after_ms <= 3000 THEN 3000 WHEN retry_after_ms <= 5000 THEN 5000 WHEN retry_after_ms <= 10000 THEN 10000 WHEN retry_after_ms <= 15000 THEN 15000 WHEN retry_after_ms <= 30000 THEN 30000 WHEN retry_after_ms <= 60000 THEN 60000 WHEN retry_after_ms <= 120000 THEN 120000 WHEN retry_after_ms <= 300000 THEN 300000 WHEN retry_after_ms <= 600000 THEN 600000 WHEN retry_after_ms <= 1800000 THEN 1800000 WHEN retry_after_ms <= 3600000 THEN 3600000 ELSE 86400000 END, count(*) FROM `tool_call_spans` WHERE started_at >= (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 3600000) * 3600000 + 3600000 END FROM `tool_call_spans`) AND retry_after_ms IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
--> statement-breakpoint
INSERT INTO `delay_histograms_hourly` (project_id, hour, tool, code, release, service, environment, kind, bucket_ms, count) SELECT project_id, (started_at / 3600000) * 3600000, tool, coalesce(code, ''), coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), 'backoff', CASE WHEN backoff_ms <= 0 THEN 0 WHEN backoff_ms <= 50 THEN 50 WHEN backoff_ms <= 100 THEN 100 WHEN backoff_ms <= 250 THEN 250 WHEN backoff_ms <= 500 THEN 500 WHEN backoff_ms <= 1000 THEN 1000 WHEN backoff_ms <= 2000 THEN 2000 WHEN backoff_ms <= 3000 THEN 3000 WHEN backoff_ms <= 5000 THEN 5000 WHEN backoff_ms <= 10000 THEN 10000 WHEN backoff_ms <= 15000 THEN 15000 WHEN backoff_ms <= 30000 THEN 30000 WHEN backoff_ms <= 60000 THEN 60000 WHEN backoff_ms <= 120000 THEN 120000 WHEN backoff_ms <= 300000 THEN 300000 WHEN backoff_ms <= 600000 THEN 600000 WHEN backoff_ms <= 1800000 THEN 1800000 WHEN backoff_ms <= 3600000 THEN 3600000 ELSE 86400000 END, count(*) FROM `tool_call_spans` WHERE started_at >= (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 3600000) * 3600000 + 3600000 END FROM `tool_call_spans`) AND backoff_ms IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
--> statement-breakpoint
DROP TABLE `delay_histograms_hourly__pre_env`;
--> statement-breakpoint
ALTER TABLE `delay_histograms_6h` RENAME TO `delay_histograms_6h__pre_env`;
--> statement-breakpoint
CREATE TABLE `delay_histograms_6h` (
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
);
--> statement-breakpoint
INSERT INTO `delay_histograms_6h` (project_id, hour, tool, code, release, service, environment, kind, bucket_ms, count) SELECT project_id, hour, tool, code, release, service, '', kind, bucket_ms, count FROM `delay_histograms_6h__pre_env` WHERE hour < (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 21600000) * 21600000 + 21600000 END FROM `tool_call_spans`);
--> statement-breakpoint
INSERT INTO `delay_histograms_6h` (project_id, hour, tool, code, release, service, environment, kind, bucket_ms, count) SELECT project_id, (started_at / 21600000) * 21600000, tool, coalesce(code, ''), coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), 'retry_after', CASE WHEN retry_after_ms <= 0 THEN 0 WHEN retry_after_ms <= 50 THEN 50 WHEN retry_after_ms <= 100 THEN 100 WHEN retry_after_ms <= 250 THEN 250 WHEN retry_after_ms <= 500 THEN 500 WHEN retry_after_ms <= 1000 THEN 1000 WHEN retry_after_ms <= 2000 THEN 2000 WHEN retry_after_ms <= 3000 THEN 3000 WHEN retry_after_ms <= 5000 THEN 5000 WHEN retry_after_ms <= 10000 THEN 10000 WHEN retry_after_ms <= 15000 THEN 15000 WHEN retry_after_ms <= 30000 THEN 30000 WHEN retry_after_ms <= 60000 THEN 60000 WHEN retry_after_ms <= 120000 THEN 120000 WHEN retry_after_ms <= 300000 THEN 300000 WHEN retry_after_ms <= 600000 THEN 600000 WHEN retry_after_ms <= 1800000 THEN 1800000 WHEN retry_after_ms <= 3600000 THEN 3600000 ELSE 86400000 END, count(*) FROM `tool_call_spans` WHERE started_at >= (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 21600000) * 21600000 + 21600000 END FROM `tool_call_spans`) AND retry_after_ms IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
--> statement-breakpoint
INSERT INTO `delay_histograms_6h` (project_id, hour, tool, code, release, service, environment, kind, bucket_ms, count) SELECT project_id, (started_at / 21600000) * 21600000, tool, coalesce(code, ''), coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), 'backoff', CASE WHEN backoff_ms <= 0 THEN 0 WHEN backoff_ms <= 50 THEN 50 WHEN backoff_ms <= 100 THEN 100 WHEN backoff_ms <= 250 THEN 250 WHEN backoff_ms <= 500 THEN 500 WHEN backoff_ms <= 1000 THEN 1000 WHEN backoff_ms <= 2000 THEN 2000 WHEN backoff_ms <= 3000 THEN 3000 WHEN backoff_ms <= 5000 THEN 5000 WHEN backoff_ms <= 10000 THEN 10000 WHEN backoff_ms <= 15000 THEN 15000 WHEN backoff_ms <= 30000 THEN 30000 WHEN backoff_ms <= 60000 THEN 60000 WHEN backoff_ms <= 120000 THEN 120000 WHEN backoff_ms <= 300000 THEN 300000 WHEN backoff_ms <= 600000 THEN 600000 WHEN backoff_ms <= 1800000 THEN 1800000 WHEN backoff_ms <= 3600000 THEN 3600000 ELSE 86400000 END, count(*) FROM `tool_call_spans` WHERE started_at >= (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 21600000) * 21600000 + 21600000 END FROM `tool_call_spans`) AND backoff_ms IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
--> statement-breakpoint
DROP TABLE `delay_histograms_6h__pre_env`;
--> statement-breakpoint
ALTER TABLE `attempt_counts_hourly` RENAME TO `attempt_counts_hourly__pre_env`;
--> statement-breakpoint
CREATE TABLE `attempt_counts_hourly` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`attempt` integer NOT NULL,
	`spans` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `release`, `service`, `environment`, `attempt`)
);
--> statement-breakpoint
INSERT INTO `attempt_counts_hourly` (project_id, hour, tool, release, service, environment, attempt, spans) SELECT project_id, hour, tool, release, service, '', attempt, spans FROM `attempt_counts_hourly__pre_env` WHERE hour < (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 3600000) * 3600000 + 3600000 END FROM `tool_call_spans`);
--> statement-breakpoint
INSERT INTO `attempt_counts_hourly` (project_id, hour, tool, release, service, environment, attempt, spans) SELECT project_id, (started_at / 3600000) * 3600000, tool, coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), attempt, count(*) FROM `tool_call_spans` WHERE started_at >= (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 3600000) * 3600000 + 3600000 END FROM `tool_call_spans`) AND attempt IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
DROP TABLE `attempt_counts_hourly__pre_env`;
--> statement-breakpoint
ALTER TABLE `attempt_counts_6h` RENAME TO `attempt_counts_6h__pre_env`;
--> statement-breakpoint
CREATE TABLE `attempt_counts_6h` (
	`project_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`release` text NOT NULL,
	`service` text NOT NULL,
	`environment` text NOT NULL,
	`attempt` integer NOT NULL,
	`spans` integer NOT NULL,
	PRIMARY KEY(`project_id`, `hour`, `tool`, `release`, `service`, `environment`, `attempt`)
);
--> statement-breakpoint
INSERT INTO `attempt_counts_6h` (project_id, hour, tool, release, service, environment, attempt, spans) SELECT project_id, hour, tool, release, service, '', attempt, spans FROM `attempt_counts_6h__pre_env` WHERE hour < (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 21600000) * 21600000 + 21600000 END FROM `tool_call_spans`);
--> statement-breakpoint
INSERT INTO `attempt_counts_6h` (project_id, hour, tool, release, service, environment, attempt, spans) SELECT project_id, (started_at / 21600000) * 21600000, tool, coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), attempt, count(*) FROM `tool_call_spans` WHERE started_at >= (SELECT CASE WHEN min(started_at) IS NULL THEN 9223372036854775807 ELSE (min(started_at) / 21600000) * 21600000 + 21600000 END FROM `tool_call_spans`) AND attempt IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
DROP TABLE `attempt_counts_6h__pre_env`;
--> statement-breakpoint
ALTER TABLE `error_rollups_hourly` RENAME TO `error_rollups_hourly__pre_env`;
--> statement-breakpoint
CREATE TABLE `error_rollups_hourly` (
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
);
--> statement-breakpoint
INSERT INTO `error_rollups_hourly` (project_id, hour, tool, code, error_class, decision, release, service, environment, errors, attempts_sum, retryable_count) SELECT project_id, hour, tool, code, error_class, decision, release, service, '', errors, attempts_sum, retryable_count FROM `error_rollups_hourly__pre_env` WHERE hour < (SELECT CASE WHEN min(occurred_at) IS NULL THEN 9223372036854775807 ELSE (min(occurred_at) / 3600000) * 3600000 + 3600000 END FROM `tool_errors`);
--> statement-breakpoint
INSERT INTO `error_rollups_hourly` (project_id, hour, tool, code, error_class, decision, release, service, environment, errors, attempts_sum, retryable_count) SELECT project_id, (occurred_at / 3600000) * 3600000, tool, coalesce(code, ''), coalesce(error_class, ''), coalesce(decision, ''), coalesce(release, ''), coalesce(service, ''), coalesce(environment, ''), count(*), coalesce(sum(attempts), 0), sum(CASE WHEN retryable = 1 THEN 1 ELSE 0 END) FROM `tool_errors` WHERE occurred_at >= (SELECT CASE WHEN min(occurred_at) IS NULL THEN 9223372036854775807 ELSE (min(occurred_at) / 3600000) * 3600000 + 3600000 END FROM `tool_errors`) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
--> statement-breakpoint
DROP TABLE `error_rollups_hourly__pre_env`;
