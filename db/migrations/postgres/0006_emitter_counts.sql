CREATE TABLE "emitter_counts" (
	"project_id" text NOT NULL,
	"service" text NOT NULL,
	"convention" text NOT NULL,
	"spans" bigint NOT NULL,
	"no_call_id" bigint NOT NULL,
	"no_run_id" bigint NOT NULL,
	"no_attempt" bigint NOT NULL,
	"no_outcome" bigint NOT NULL,
	"non_ok" bigint NOT NULL,
	"no_code" bigint NOT NULL,
	"no_error_class" bigint NOT NULL,
	"no_message" bigint NOT NULL,
	"no_release" bigint NOT NULL,
	"last_seen" bigint NOT NULL,
	CONSTRAINT "emitter_counts_pk" PRIMARY KEY("project_id","service","convention")
);
--> statement-breakpoint
CREATE TABLE "emitter_drops" (
	"project_id" text NOT NULL,
	"service" text NOT NULL,
	"convention" text NOT NULL,
	"reason" text NOT NULL,
	"attribute" text NOT NULL,
	"spans" bigint NOT NULL,
	"last_seen" bigint NOT NULL,
	CONSTRAINT "emitter_drops_pk" PRIMARY KEY("project_id","service","convention","reason","attribute")
);
