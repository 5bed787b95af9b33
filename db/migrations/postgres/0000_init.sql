CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"pk" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"record_id" text NOT NULL,
	"run_id" text NOT NULL,
	"agent" text,
	"release" text,
	"service" text,
	"environment" text,
	"sdk_name" text,
	"sdk_version" text,
	"started_at" bigint,
	"ended_at" bigint,
	"state" text NOT NULL,
	"deadline_at" bigint,
	"max_tool_attempts" bigint,
	"error" text,
	"source" text DEFAULT 'native' NOT NULL,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tool_call_spans" (
	"pk" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"span_id" text NOT NULL,
	"trace_id" text,
	"parent_span_id" text,
	"run_id" text NOT NULL,
	"call_id" text NOT NULL,
	"tool" text NOT NULL,
	"tool_version" text,
	"release" text,
	"service" text,
	"environment" text,
	"sdk_name" text,
	"sdk_version" text,
	"attempt" bigint,
	"started_at" bigint NOT NULL,
	"ended_at" bigint NOT NULL,
	"outcome" text,
	"code" text,
	"error_class" text,
	"retryable" smallint,
	"retry_after_ms" bigint,
	"backoff_ms" bigint,
	"decision" text,
	"permitted" smallint,
	"abandoned" smallint,
	"message" text,
	"source" text DEFAULT 'native' NOT NULL,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tool_errors" (
	"pk" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"run_id" text NOT NULL,
	"call_id" text NOT NULL,
	"tool" text NOT NULL,
	"tool_version" text,
	"release" text,
	"service" text,
	"environment" text,
	"code" text,
	"error_class" text,
	"retryable" smallint,
	"attempts" bigint,
	"decision" text,
	"told" text,
	"occurred_at" bigint NOT NULL,
	"source" text DEFAULT 'native' NOT NULL,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "span_rollups_6h" (
	"project_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"outcome" text NOT NULL,
	"error_class" text NOT NULL,
	"release" text NOT NULL,
	"service" text NOT NULL,
	"spans" bigint NOT NULL,
	"first_attempts" bigint NOT NULL,
	"second_attempts" bigint NOT NULL,
	"retry_attempts" bigint NOT NULL,
	"unnumbered" bigint DEFAULT 0 NOT NULL,
	"max_attempt" bigint NOT NULL,
	"retry_after_count" bigint NOT NULL,
	"retry_after_sum_ms" bigint NOT NULL,
	"backoff_count" bigint NOT NULL,
	"backoff_sum_ms" bigint NOT NULL,
	"failed_closed" bigint NOT NULL,
	"duration_sum_ms" bigint NOT NULL,
	CONSTRAINT "span_rollups_6h_pk" PRIMARY KEY("project_id","hour","tool","code","outcome","error_class","release","service")
);
--> statement-breakpoint
CREATE TABLE "span_rollups_hourly" (
	"project_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"outcome" text NOT NULL,
	"error_class" text NOT NULL,
	"release" text NOT NULL,
	"service" text NOT NULL,
	"spans" bigint NOT NULL,
	"first_attempts" bigint NOT NULL,
	"second_attempts" bigint NOT NULL,
	"retry_attempts" bigint NOT NULL,
	"unnumbered" bigint DEFAULT 0 NOT NULL,
	"max_attempt" bigint NOT NULL,
	"retry_after_count" bigint NOT NULL,
	"retry_after_sum_ms" bigint NOT NULL,
	"backoff_count" bigint NOT NULL,
	"backoff_sum_ms" bigint NOT NULL,
	"failed_closed" bigint NOT NULL,
	"duration_sum_ms" bigint NOT NULL,
	CONSTRAINT "span_rollups_hourly_pk" PRIMARY KEY("project_id","hour","tool","code","outcome","error_class","release","service")
);
--> statement-breakpoint
CREATE TABLE "delay_histograms_6h" (
	"project_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"release" text NOT NULL,
	"service" text NOT NULL,
	"kind" text NOT NULL,
	"bucket_ms" bigint NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "delay_histograms_6h_pk" PRIMARY KEY("project_id","hour","tool","code","release","service","kind","bucket_ms")
);
--> statement-breakpoint
CREATE TABLE "delay_histograms_hourly" (
	"project_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"release" text NOT NULL,
	"service" text NOT NULL,
	"kind" text NOT NULL,
	"bucket_ms" bigint NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "delay_histograms_hourly_pk" PRIMARY KEY("project_id","hour","tool","code","release","service","kind","bucket_ms")
);
--> statement-breakpoint
CREATE TABLE "attempt_counts_6h" (
	"project_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"tool" text NOT NULL,
	"release" text NOT NULL,
	"service" text NOT NULL,
	"attempt" bigint NOT NULL,
	"spans" bigint NOT NULL,
	CONSTRAINT "attempt_counts_6h_pk" PRIMARY KEY("project_id","hour","tool","release","service","attempt")
);
--> statement-breakpoint
CREATE TABLE "attempt_counts_hourly" (
	"project_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"tool" text NOT NULL,
	"release" text NOT NULL,
	"service" text NOT NULL,
	"attempt" bigint NOT NULL,
	"spans" bigint NOT NULL,
	CONSTRAINT "attempt_counts_hourly_pk" PRIMARY KEY("project_id","hour","tool","release","service","attempt")
);
--> statement-breakpoint
CREATE TABLE "error_rollups_hourly" (
	"project_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"error_class" text NOT NULL,
	"decision" text NOT NULL,
	"release" text NOT NULL,
	"service" text NOT NULL,
	"errors" bigint NOT NULL,
	"attempts_sum" bigint NOT NULL,
	"retryable_count" bigint NOT NULL,
	CONSTRAINT "error_rollups_hourly_pk" PRIMARY KEY("project_id","hour","tool","code","error_class","decision","release","service")
);
--> statement-breakpoint
CREATE TABLE "codes" (
	"project_id" text NOT NULL,
	"code" text NOT NULL,
	"tool" text NOT NULL,
	"release" text NOT NULL,
	"tool_version" text NOT NULL,
	"error_class" text NOT NULL,
	"retryable" bigint NOT NULL,
	"first_seen" bigint NOT NULL,
	"last_seen" bigint NOT NULL,
	"spans" bigint NOT NULL,
	"errors" bigint NOT NULL,
	CONSTRAINT "codes_pk" PRIMARY KEY("project_id","code","tool","release","tool_version","error_class","retryable")
);
--> statement-breakpoint
CREATE TABLE "run_stats" (
	"project_id" text NOT NULL,
	"run_id" text NOT NULL,
	"attempts" bigint NOT NULL,
	"calls" bigint NOT NULL,
	"retries" bigint NOT NULL,
	"failed_attempts" bigint NOT NULL,
	"declined" bigint NOT NULL,
	"refused" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"first_started_at" bigint NOT NULL,
	"last_ended_at" bigint NOT NULL,
	CONSTRAINT "run_stats_pk" PRIMARY KEY("project_id","run_id")
);
--> statement-breakpoint
CREATE TABLE "run_tools" (
	"project_id" text NOT NULL,
	"tool" text NOT NULL,
	"run_id" text NOT NULL,
	CONSTRAINT "run_tools_pk" PRIMARY KEY("project_id","tool","run_id")
);
--> statement-breakpoint
CREATE TABLE "conformance_counts" (
	"project_id" text NOT NULL,
	"source" text NOT NULL,
	"spans" bigint NOT NULL,
	"no_outcome" bigint NOT NULL,
	"non_ok" bigint NOT NULL,
	"no_code" bigint NOT NULL,
	"no_attempt" bigint NOT NULL,
	"no_release" bigint NOT NULL,
	CONSTRAINT "conformance_counts_pk" PRIMARY KEY("project_id","source")
);
--> statement-breakpoint
CREATE TABLE "drift_state" (
	"project_id" text PRIMARY KEY NOT NULL,
	"span_watermark" bigint DEFAULT 0 NOT NULL,
	"error_watermark" bigint DEFAULT 0 NOT NULL,
	"refreshed_at" bigint DEFAULT 0 NOT NULL,
	"findings_computed_at" bigint
);
--> statement-breakpoint
CREATE TABLE "drift_signatures" (
	"project_id" text NOT NULL,
	"code" text NOT NULL,
	"tool" text NOT NULL,
	"release" text NOT NULL,
	"release_kind" text NOT NULL,
	"spans" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	"recovered" bigint DEFAULT 0 NOT NULL,
	"first_seen" bigint NOT NULL,
	"last_seen" bigint NOT NULL,
	"example_run_ids" text DEFAULT '[]' NOT NULL,
	CONSTRAINT "drift_signatures_pk" PRIMARY KEY("project_id","code","tool","release")
);
--> statement-breakpoint
CREATE TABLE "drift_counts" (
	"project_id" text NOT NULL,
	"code" text NOT NULL,
	"tool" text NOT NULL,
	"release" text NOT NULL,
	"basis" text NOT NULL,
	"dim" text NOT NULL,
	"value" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "drift_counts_pk" PRIMARY KEY("project_id","code","tool","release","basis","dim","value")
);
--> statement-breakpoint
CREATE TABLE "drift_calls" (
	"project_id" text NOT NULL,
	"run_id" text NOT NULL,
	"call_id" text NOT NULL,
	"code" text NOT NULL,
	"tool" text NOT NULL,
	"release" text NOT NULL,
	"attempt" bigint,
	"started_at" bigint NOT NULL,
	"recovered" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "drift_calls_pk" PRIMARY KEY("project_id","run_id","call_id","code")
);
--> statement-breakpoint
CREATE TABLE "drift_tool_releases" (
	"project_id" text NOT NULL,
	"tool" text NOT NULL,
	"release" text NOT NULL,
	"release_kind" text NOT NULL,
	"first_attempts" bigint DEFAULT 0 NOT NULL,
	"spans" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"first_seen" bigint NOT NULL,
	"last_seen" bigint NOT NULL,
	"example_run_ids" text DEFAULT '[]' NOT NULL,
	CONSTRAINT "drift_tool_releases_pk" PRIMARY KEY("project_id","tool","release")
);
--> statement-breakpoint
CREATE TABLE "drift_findings" (
	"project_id" text NOT NULL,
	"finding_id" text NOT NULL,
	"rank" bigint NOT NULL,
	"kind" text NOT NULL,
	"severity" text NOT NULL,
	"verdict" text NOT NULL,
	"code" text NOT NULL,
	"renamed_to" text,
	"tool" text NOT NULL,
	"from_release" text NOT NULL,
	"to_release" text NOT NULL,
	"body" text NOT NULL,
	"computed_at" bigint NOT NULL,
	CONSTRAINT "drift_findings_pk" PRIMARY KEY("project_id","finding_id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_call_spans" ADD CONSTRAINT "tool_call_spans_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_errors" ADD CONSTRAINT "tool_errors_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_uq" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "api_keys_project_idx" ON "api_keys" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_project_run_uq" ON "runs" USING btree ("project_id","run_id");--> statement-breakpoint
CREATE INDEX "runs_project_started_idx" ON "runs" USING btree ("project_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "spans_project_span_uq" ON "tool_call_spans" USING btree ("project_id","span_id");--> statement-breakpoint
CREATE INDEX "spans_project_run_idx" ON "tool_call_spans" USING btree ("project_id","run_id","started_at");--> statement-breakpoint
CREATE INDEX "spans_project_tool_time_idx" ON "tool_call_spans" USING btree ("project_id","tool","started_at");--> statement-breakpoint
CREATE INDEX "spans_project_code_time_idx" ON "tool_call_spans" USING btree ("project_id","code","started_at") WHERE "tool_call_spans"."code" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tool_errors_project_event_uq" ON "tool_errors" USING btree ("project_id","event_id");--> statement-breakpoint
CREATE INDEX "tool_errors_project_run_idx" ON "tool_errors" USING btree ("project_id","run_id");--> statement-breakpoint
CREATE INDEX "tool_errors_project_time_idx" ON "tool_errors" USING btree ("project_id","occurred_at");--> statement-breakpoint
CREATE INDEX "run_stats_project_started_idx" ON "run_stats" USING btree ("project_id","first_started_at");--> statement-breakpoint
CREATE INDEX "drift_findings_rank_idx" ON "drift_findings" USING btree ("project_id","rank");