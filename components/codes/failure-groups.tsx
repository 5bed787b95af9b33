"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { QueryError } from "@/components/dashboard/query-error";
import type { FailureGroup } from "@/lib/contracts/classification";
import { failureGroupsQuery } from "@/lib/query/classification";
import { FailureGroupsFrame } from "./failure-groups-frame";
import { NameFailureForm } from "./name-failure-form";

const when = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 16);

/** Failures without a code, grouped (docs/classification.md), beside the codes: what is unnamed and how much it weighs. */
export function FailureGroups(props: { project: string; range: string | undefined }) {
  const q = useQuery(failureGroupsQuery(props.project, props.range));
  // The group being named is kept as it was clicked: once its history is re-classified it leaves
  // the list, and the form (with the outcome of the re-classification) must stay until closed.
  const [selected, setSelected] = useState<FailureGroup | null>(null);
  const groups = q.data?.groups ?? [];
  return (
    <FailureGroupsFrame>
      {q.error && <QueryError error={q.error} stale={false} />}
      {q.isPending ? <p>Loading…</p> : groups.length === 0 ? <p>Every failure in this window has a code.</p> : (
        <table>
          <thead>
            <tr><th>Tool</th><th>Error type</th><th>Message shape</th><th>HTTP</th><th>Calls</th><th>Runs</th><th>First seen</th><th>Last seen</th><th>Samples</th><th /></tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.key} id={`group-${g.key}`}>
                <td>{g.tool}</td>
                <td>{g.errorType ?? "—"}</td>
                <td><code>{g.shape || "(no message)"}</code></td>
                <td>{g.httpStatus ?? "—"}</td>
                <td>{g.calls}</td>
                <td>{g.runs}</td>
                <td>{when(g.firstSeen)}</td>
                <td>{when(g.lastSeen)}</td>
                <td>
                  {g.samples.map((s) => (
                    <div key={s.spanId}>
                      <a href={`/runs/${encodeURIComponent(s.runId)}?project=${encodeURIComponent(props.project)}`}>{s.runId}</a>: {s.message ?? "(no message)"}
                    </div>
                  ))}
                </td>
                <td><button type="button" onClick={() => setSelected(g)}>Name this failure</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected && <NameFailureForm key={selected.key} project={props.project} range={props.range} group={selected} onClose={() => setSelected(null)} />}
    </FailureGroupsFrame>
  );
}
