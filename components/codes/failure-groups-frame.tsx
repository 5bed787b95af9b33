import type { ReactNode } from "react";

/** The Unclassified failures panel around its content: its heading and what it groups by. */
export function FailureGroupsFrame({ children }: { children: ReactNode }) {
  return (
    <section className="panel" aria-label="Unclassified failures">
      <div className="panel-head">
        <h2>Unclassified failures</h2>
        <span className="sub">failed or refused calls without a code, grouped by tool, error type, message shape and HTTP status</span>
      </div>
      {children}
    </section>
  );
}
