"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { DRIFT_SEVERITIES, type DriftSeverity } from "@/lib/contracts/drift-summary";
import { driftSummaryOptions } from "@/lib/query/drift-summary";
import styles from "./drift.module.css";

/**
 * A small "drift" marker for a code (optionally on one tool), or for a tool when only `tool` is
 * given; links to the Drift page filtered to it. Renders nothing when there is no finding. All
 * badges of a page share one summary query.
 */
export function DriftBadge({ code, tool, project = "default" }: { code?: string; tool?: string; project?: string }) {
  const { data } = useQuery(driftSummaryOptions(project));
  const entries = (data?.entries ?? []).filter((e) => (code === undefined || e.code === code) && (tool === undefined || e.tool === tool));
  if (entries.length === 0 || (code === undefined && tool === undefined)) return null;
  const findings = entries.reduce((s, e) => s + e.findings, 0);
  const severity = entries.reduce<DriftSeverity>((worst, e) => (DRIFT_SEVERITIES.indexOf(e.severity) < DRIFT_SEVERITIES.indexOf(worst) ? e.severity : worst), "info");
  const qs = new URLSearchParams(Object.entries({ project: project === "default" ? undefined : project, code, tool }).filter((e): e is [string, string] => e[1] !== undefined));
  const subject = code !== undefined ? `code ${code}${tool !== undefined ? ` on ${tool}` : ""}` : `tool ${tool}`;
  return (
    <Link
      href={`/drift?${qs.toString()}`}
      className={styles.badge}
      data-severity={severity}
      title={`${findings} drift finding${findings === 1 ? "" : "s"} for ${subject} (worst: ${severity})`}
      // Starts with the visible text so speech users can say what they see.
      aria-label={`drift · ${severity}: ${findings} finding${findings === 1 ? "" : "s"} for ${subject}`}
      data-testid="drift-badge"
    >
      drift · {severity}
    </Link>
  );
}
