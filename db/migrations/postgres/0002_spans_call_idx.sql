-- The search box finds a call by its id, exactly or by prefix, within a project. Declared on the
-- partitioned parent: PostgreSQL builds it on every existing partition and on each one attached
-- later (db/partitions/). CONCURRENTLY is not available on a partitioned parent, so the build holds
-- off writes to the spans while it runs, as any migration of this table does.
CREATE INDEX "spans_project_call_idx" ON "tool_call_spans" USING btree ("project_id","call_id");
