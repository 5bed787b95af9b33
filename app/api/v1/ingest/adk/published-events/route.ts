import { getStore } from "@/db/client";
import { ingestAdkPublished } from "@/db/ingest/ingest-adk";
import { adkPublishedBatchSchema } from "@/lib/contracts/adk";
import { authenticateIngest } from "@/lib/server/auth";
import { withIngestSlot } from "@/lib/server/backpressure";
import { parseEnvelope } from "@/lib/server/parse-envelope";
import { parseJson, readBody } from "@/lib/server/read-body";
import { route } from "@/lib/server/route";
import { scheduleDriftRefresh } from "@/lib/server/drift-refresh";

export const dynamic = "force-dynamic";

/** The reference kit's published event envelopes. */
export const POST = route((req: Request) =>
  withIngestSlot(async () => {
    const store = getStore();
    const projectId = authenticateIngest(req, store);
    const batch = parseEnvelope(adkPublishedBatchSchema, parseJson(await readBody(req, ["application/json"])));
    const result = ingestAdkPublished(store, projectId, batch.resource, batch.events);
    scheduleDriftRefresh(store, projectId);
    return Response.json(result, { status: result.rejected.length > 0 ? 207 : 200 });
  }),
);
