import type { Metadata } from "next";
import { PageProblem } from "@/components/dashboard/page-problem";
import { RetrySoon } from "@/components/dashboard/retry-soon";
import { STORAGE_RETRY_AFTER } from "@/server/http/api-error";

export const metadata: Metadata = { title: "Storage unavailable · Faultline" };
export const dynamic = "force-dynamic";

/**
 * What every page shows while the database cannot be reached (proxy.ts rewrites to it with a 503):
 * nothing of the data, what is wrong in plain words, and a reload once the Retry-After has passed.
 */
export default function StorageUnavailable() {
  return (
    <>
      <PageProblem
        status={503}
        title="Storage is unavailable"
        message="Faultline cannot reach its database right now, so this page cannot be shown. Nothing you sent is lost: agents retry their ingest. The operator finds the cause in the server's log."
        href="/"
        linkText="Try the Overview"
      />
      <RetrySoon seconds={Number(STORAGE_RETRY_AFTER)} />
    </>
  );
}
