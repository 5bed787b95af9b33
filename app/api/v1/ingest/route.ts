import { formatIssues, ingestBatchSchema } from "@/lib/contracts";
import { getStore } from "@/db/client";
import { ingestNativeBatch } from "@/db/ingest/ingest-native";
import { ApiError } from "@/lib/server/api-error";
import { authenticateIngest } from "@/lib/server/auth";
import { withIngestSlot } from "@/lib/server/backpressure";
import { parseJson, readBody } from "@/lib/server/read-body";
import { route } from "@/lib/server/route";
import { scheduleDriftRefresh } from "@/lib/server/drift-refresh";

export const dynamic = "force-dynamic";

export const POST = route((req: Request) =>
  withIngestSlot(async () => {
    const store = getStore();
    const projectId = authenticateIngest(req, store);
    const envelope = ingestBatchSchema.safeParse(parseJson(await readBody(req, ["application/json"])));
    if (!envelope.success) {
      const issues = envelope.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      throw new ApiError("bad_request", `invalid batch: ${formatIssues(envelope.error.issues)}`, issues);
    }
    const result = ingestNativeBatch(store, projectId, envelope.data.resource, envelope.data.records);
    scheduleDriftRefresh(store, projectId);
    return Response.json(result, { status: result.rejected.length > 0 ? 207 : 200 });
  }),
);
