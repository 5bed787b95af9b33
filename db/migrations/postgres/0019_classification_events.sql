CREATE TABLE "classification_events" (
	"project_id" text NOT NULL,
	"revision" bigint NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"at" bigint NOT NULL,
	"codes" text DEFAULT '[]' NOT NULL,
	CONSTRAINT "classification_events_pk" PRIMARY KEY("project_id","revision")
);
