"use client";

import { useQueryClient } from "@tanstack/react-query";
import { ApiFetchError } from "@/lib/query/fetch-json";

/**
 * The one in-app error of a failed read: what went wrong, whether the numbers on screen are the last
 * ones that loaded, and a retry. Without `onRetry` it retries every read of the page that failed.
 */
export function QueryError({ error, onRetry, stale = false }: { error: Error; onRetry?: () => void; stale?: boolean }) {
  const qc = useQueryClient();
  const unreachable = error instanceof ApiFetchError && error.status === 0;
  const retry = onRetry ?? (() => void qc.refetchQueries({ type: "active", predicate: (q) => q.state.status === "error" }));
  return (
    <div className="error-box" role="alert" data-testid="query-error">
      <span>
        {unreachable ? "The Faultline server could not be reached." : `Could not load this view: ${error.message}.`}
        {stale && " Showing the last data that loaded."}
      </span>
      <button type="button" className="btn" onClick={retry}>
        Retry
      </button>
    </div>
  );
}
