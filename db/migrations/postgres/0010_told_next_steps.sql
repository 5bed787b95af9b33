CREATE TABLE "told_steps" (
	"project_id" text NOT NULL,
	"event_id" text NOT NULL,
	"run_id" text NOT NULL,
	"call_id" text NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"release" text NOT NULL,
	"shape" text NOT NULL,
	"step" text NOT NULL,
	"run_state" text NOT NULL,
	"calls" bigint NOT NULL,
	"next_call_id" text,
	"next_tool" text,
	"next_outcome" text,
	"next_code" text,
	"occurred_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "told_steps_pk" PRIMARY KEY("project_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "told_step_counts" (
	"project_id" text NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"release" text NOT NULL,
	"shape" text NOT NULL,
	"step" text NOT NULL,
	"run_state" text NOT NULL,
	"calls" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"first_seen" bigint NOT NULL,
	"last_seen" bigint NOT NULL,
	CONSTRAINT "told_step_counts_pk" PRIMARY KEY("project_id","tool","code","release","shape","step","run_state","calls")
);
--> statement-breakpoint
CREATE TABLE "told_stale" (
	"project_id" text PRIMARY KEY NOT NULL,
	"since" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "unanswered_tool_uses" bigint;--> statement-breakpoint
ALTER TABLE "tool_call_spans" ADD COLUMN "args_hash" text;--> statement-breakpoint
ALTER TABLE "tool_call_spans" ADD COLUMN "after_error" text;--> statement-breakpoint
CREATE INDEX "told_steps_project_run_idx" ON "told_steps" USING btree ("project_id","run_id");--> statement-breakpoint
CREATE INDEX "told_steps_project_code_idx" ON "told_steps" USING btree ("project_id","code","occurred_at");--> statement-breakpoint
CREATE INDEX "told_steps_project_tool_idx" ON "told_steps" USING btree ("project_id","tool","occurred_at");--> statement-breakpoint
CREATE INDEX "runs_project_unanswered_idx" ON "runs" USING btree ("project_id","run_id") WHERE "runs"."unanswered_tool_uses" > 0;