CREATE TABLE "issues" (
	"project_id" text NOT NULL,
	"id" text NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"state" text NOT NULL,
	"resolve_mode" text,
	"resolve_release" text,
	"resolved_at" bigint,
	"ignore_mode" text,
	"ignore_limit" bigint,
	"assignee_user_id" text,
	"failures" bigint NOT NULL,
	"unrecovered" bigint NOT NULL,
	"retries" bigint NOT NULL,
	"wait_ms" bigint NOT NULL,
	"runs" bigint NOT NULL,
	"worst_hour" bigint NOT NULL,
	"first_seen" bigint NOT NULL,
	"last_seen" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "issues_pk" PRIMARY KEY("project_id","id")
);
--> statement-breakpoint
CREATE TABLE "issue_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"issue_id" text NOT NULL,
	"at" bigint NOT NULL,
	"actor_user_id" text,
	"actor_label" text NOT NULL,
	"kind" text NOT NULL,
	"detail" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issue_hours" (
	"project_id" text NOT NULL,
	"issue_id" text NOT NULL,
	"hour" bigint NOT NULL,
	"failures" bigint NOT NULL,
	CONSTRAINT "issue_hours_pk" PRIMARY KEY("project_id","issue_id","hour")
);
--> statement-breakpoint
CREATE TABLE "issue_releases" (
	"project_id" text NOT NULL,
	"issue_id" text NOT NULL,
	"release" text NOT NULL,
	"first_seen" bigint NOT NULL,
	"last_seen" bigint NOT NULL,
	"failures" bigint NOT NULL,
	CONSTRAINT "issue_releases_pk" PRIMARY KEY("project_id","issue_id","release")
);
--> statement-breakpoint
CREATE TABLE "issue_runs" (
	"project_id" text NOT NULL,
	"issue_id" text NOT NULL,
	"run_id" text NOT NULL,
	CONSTRAINT "issue_runs_pk" PRIMARY KEY("project_id","issue_id","run_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "issues_project_tool_code_idx" ON "issues" USING btree ("project_id","tool","code");--> statement-breakpoint
CREATE INDEX "issues_project_last_seen_idx" ON "issues" USING btree ("project_id","last_seen");--> statement-breakpoint
CREATE INDEX "issue_events_issue_idx" ON "issue_events" USING btree ("project_id","issue_id","id");--> statement-breakpoint
CREATE INDEX "issue_runs_project_run_idx" ON "issue_runs" USING btree ("project_id","run_id");