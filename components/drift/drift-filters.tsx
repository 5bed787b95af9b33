"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { DRIFT_KINDS, DRIFT_SEVERITIES, type DriftFindingsResponse } from "@/lib/contracts/drift";
import type { DriftFilters } from "@/lib/query/drift";
import { projectsQuery } from "@/lib/query/projects-query";
import { CommitSelect } from "@/components/runs/commit-select";
import { KIND_LABEL } from "./labels";
import styles from "./drift.module.css";

/** Filters live in the URL: every change replaces the query string, so a view can be shared. */
export function DriftFilterBar({ filters, totals }: { filters: DriftFilters; totals: DriftFindingsResponse["totals"] | undefined }) {
  const router = useRouter();
  const pathname = usePathname();
  const [tool, setTool] = useState(filters.tool ?? "");
  const [code, setCode] = useState(filters.code ?? "");
  const projects = useQuery(projectsQuery()).data?.projects;
  const project = filters.project ?? "default";

  // Other filters match other findings: a change starts again from the first page.
  const apply = ({ offset: _offset, ...next }: DriftFilters) => {
    const qs = new URLSearchParams(Object.entries(next).filter((e): e is [string, string] => Boolean(e[1]))).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    apply({ ...filters, tool: tool.trim() || undefined, code: code.trim() || undefined });
  };

  return (
    <form className={styles.filters} onSubmit={onSubmit} aria-label="Filter findings">
      <label>
        Project
        <CommitSelect value={project} onCommit={(v) => apply({ ...filters, project: v === "default" ? undefined : v })} data-testid="drift-project">
          {(projects ?? []).some((p) => p.id === project) ? null : <option value={project}>{project}</option>}
          {(projects ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {`${p.name && p.name !== p.id ? `${p.name} (${p.id})` : p.id}${p.archivedAt === null ? "" : " · archived"}`}
            </option>
          ))}
        </CommitSelect>
      </label>
      <label>
        Kind
        <CommitSelect value={filters.kind ?? ""} onCommit={(v) => apply({ ...filters, kind: v || undefined })}>
          <option value="">all kinds{totals ? ` (${totals.all})` : ""}</option>
          {DRIFT_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABEL[k]}
              {totals ? ` (${totals.byKind[k] ?? 0})` : ""}
            </option>
          ))}
        </CommitSelect>
      </label>
      <label>
        Severity
        <CommitSelect value={filters.severity ?? ""} onCommit={(v) => apply({ ...filters, severity: v || undefined })}>
          <option value="">all severities</option>
          {DRIFT_SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {s}
              {totals ? ` (${totals.bySeverity[s] ?? 0})` : ""}
            </option>
          ))}
        </CommitSelect>
      </label>
      <label>
        Tool
        <input name="tool" value={tool} onChange={(e) => setTool(e.target.value)} placeholder="any tool" />
      </label>
      <label>
        Code
        <input name="code" value={code} onChange={(e) => setCode(e.target.value)} placeholder="any code" />
      </label>
      <button type="submit">Apply</button>
      <button
        type="button"
        onClick={() => {
          setTool("");
          setCode("");
          apply({ project: filters.project });
        }}
      >
        Clear
      </button>
    </form>
  );
}
