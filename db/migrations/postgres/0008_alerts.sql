CREATE TABLE "alert_receivers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"format" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"params" text NOT NULL,
	"receiver_id" bigint,
	"muted_at" bigint,
	"snoozed_until" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_states" (
	"rule_id" bigint NOT NULL,
	"key" text NOT NULL,
	"tool" text NOT NULL,
	"code" text NOT NULL,
	"status" text NOT NULL,
	"value" text NOT NULL,
	"fired_at" bigint NOT NULL,
	"resolved_at" bigint,
	CONSTRAINT "alert_states_pk" PRIMARY KEY("rule_id","key")
);
--> statement-breakpoint
CREATE TABLE "alert_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"rule_id" bigint NOT NULL,
	"rule_name" text NOT NULL,
	"receiver_id" bigint,
	"key" text NOT NULL,
	"status" text NOT NULL,
	"body" text NOT NULL,
	"created_at" bigint NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint,
	"delivered_at" bigint,
	"gave_up_at" bigint
);
--> statement-breakpoint
CREATE TABLE "alert_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outbox_id" bigint NOT NULL,
	"attempted_at" bigint NOT NULL,
	"http_status" bigint,
	"error" text,
	"duration_ms" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_receivers" ADD CONSTRAINT "alert_receivers_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_receiver_id_alert_receivers_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."alert_receivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_states" ADD CONSTRAINT "alert_states_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_outbox" ADD CONSTRAINT "alert_outbox_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_attempts" ADD CONSTRAINT "alert_attempts_outbox_id_alert_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."alert_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_receivers_project_idx" ON "alert_receivers" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "alert_rules_project_idx" ON "alert_rules" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "alert_outbox_project_idx" ON "alert_outbox" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "alert_outbox_due_idx" ON "alert_outbox" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "alert_attempts_outbox_idx" ON "alert_attempts" USING btree ("outbox_id");--> statement-breakpoint
-- Projects that exist before alerts get the same default rules a new project gets (lib/alerts/default-rules.ts),
-- created now: a new-code rule fires for codes first seen after it was created, not for every code already known.
INSERT INTO alert_rules (project_id, name, kind, params, created_at, updated_at) SELECT id, 'New error code for a tool', 'new_code', '{"kind":"new_code"}', CAST(extract(epoch FROM now()) * 1000 AS bigint), CAST(extract(epoch FROM now()) * 1000 AS bigint) FROM projects ORDER BY id;--> statement-breakpoint
INSERT INTO alert_rules (project_id, name, kind, params, created_at, updated_at) SELECT id, 'Critical drift finding', 'drift', '{"kind":"drift","minSeverity":"critical"}', CAST(extract(epoch FROM now()) * 1000 AS bigint), CAST(extract(epoch FROM now()) * 1000 AS bigint) FROM projects ORDER BY id;
