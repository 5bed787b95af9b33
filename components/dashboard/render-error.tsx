"use client";

import { useEffect } from "react";

/** A render that failed: what happened (the server's reference, or the message) and a retry. */
export function RenderError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <section className="panel problem" data-testid="page-problem" data-status="500" aria-labelledby="problem-title">
      <p className="problem-status">Something went wrong</p>
      <h1 id="problem-title" tabIndex={-1}>
        This page could not be shown
      </h1>
      <p>{error.digest ? `The server logged the error (reference ${error.digest}).` : error.message}</p>
      <p>
        <button type="button" className="btn" onClick={reset}>
          Try again
        </button>
      </p>
    </section>
  );
}
