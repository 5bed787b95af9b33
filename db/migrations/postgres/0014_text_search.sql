-- Full-text search over attempt error messages (tool_call_spans.message) and told texts
-- (tool_errors.told), docs/search.md. A stored generated tsvector column and a GIN index on each:
-- the vector is computed by the row's own INSERT, so ingest and every node stay in step with no
-- extra statement, and on these day-partitioned tables the index is partitioned with them, so
-- retention's partition drops and row deletes take the index entries along.
-- The text is split on every run of characters that are not letters or digits before the 'simple'
-- configuration lowercases it: the same words SQLite's FTS5 unicode61 tokenizer sees (PostgreSQL's
-- parser alone would keep host names, paths and versions as single tokens).
-- Not declared in db/schema: drizzle-kit has no tsvector kind; ingest and copies name their columns.
ALTER TABLE "tool_call_spans" ADD COLUMN "message_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, regexp_replace(coalesce("message", ''), '[^[:alnum:]]+', ' ', 'g'))) STORED;
--> statement-breakpoint
CREATE INDEX "spans_message_tsv_idx" ON "tool_call_spans" USING gin ("message_tsv");
--> statement-breakpoint
ALTER TABLE "tool_errors" ADD COLUMN "told_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, regexp_replace(coalesce("told", ''), '[^[:alnum:]]+', ' ', 'g'))) STORED;
--> statement-breakpoint
CREATE INDEX "tool_errors_told_tsv_idx" ON "tool_errors" USING gin ("told_tsv");
