"use client";

import { useQuery } from "@tanstack/react-query";
import { traceLinkUrl } from "@/lib/contracts/trace-links";
import { traceLinkQuery } from "@/lib/query/trace-links";

/** "Open in <tool>" on the same trace there (a new tab), when the project links a tracing tool; nothing otherwise. */
export function TraceToolLink({ project, traceId, spanId, what }: { project: string; traceId: string; spanId: string | null; what: "run" | "attempt" }) {
  const link = useQuery(traceLinkQuery(project)).data?.link ?? null;
  if (!link) return null;
  return (
    <>
      {" "}
      <a href={traceLinkUrl(link.template, { traceId, spanId })} target="_blank" rel="noopener noreferrer" data-testid={`${what}-trace-link`}>
        Open in {link.toolName}
      </a>
    </>
  );
}
