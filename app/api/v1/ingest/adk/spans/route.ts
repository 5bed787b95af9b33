import { getStore } from "@/db/client";
import { ingestAdkSpans } from "@/db/ingest/ingest-adk";
import { adkSpansBatchSchema } from "@/lib/contracts/adk";
import { authenticateIngest } from "@/lib/server/auth";
import { withIngestSlot } from "@/lib/server/backpressure";
import { parseEnvelope } from "@/lib/server/parse-envelope";
import { parseJson, readBody } from "@/lib/server/read-body";
import { route } from "@/lib/server/route";
import { scheduleDriftRefresh } from "@/lib/server/drift-refresh";

export const dynamic = "force-dynamic";

/** The reference kit's ToolCallSpan observer records. */
export const POST = route((req: Request) =>
  withIngestSlot(async () => {
    const store = getStore();
    const projectId = authenticateIngest(req, store);
    const { spans, ...batch } = parseEnvelope(adkSpansBatchSchema, parseJson(await readBody(req, ["application/json"])));
    const result = ingestAdkSpans(store, projectId, batch, spans);
    scheduleDriftRefresh(store, projectId);
    return Response.json(result, { status: result.rejected.length > 0 ? 207 : 200 });
  }),
);
