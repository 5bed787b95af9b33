-- The rollups whose rows every batch of their hour updates leave room on each page for the next
-- versions of its rows (HOT updates, pruned in the page): at 1M spans their heaps were 14-65 % live
-- after VACUUM, the rest space left by updates that found no room on their page (docs/ingest-performance.md,
-- "Fifth round"). Applies to pages written from now on.
ALTER TABLE "span_rollups_hourly" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "span_rollups_6h" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "attempt_counts_hourly" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "attempt_counts_6h" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "call_endings_hourly" SET (fillfactor = 70);
