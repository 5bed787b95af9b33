-- runs keyed by (project, run_id) without its serial `pk`, which nothing reads: the bigserial and its
-- index cost about 6 bytes per span (docs/ingest-performance.md, "Fifth round"). Rows written before
-- keep the dropped column's bytes until they are rewritten.
-- The serial goes first (it is the table's primary key until then), then the new key replaces the
-- unique index on the same columns.
ALTER TABLE "runs" DROP COLUMN "pk";--> statement-breakpoint
DROP INDEX "runs_project_run_uq";--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_pk" PRIMARY KEY("project_id","run_id");