"use client";

import { useQuery } from "@tanstack/react-query";
import { slosOptions } from "@/lib/query/slos";

/** The SLO a burn-rate rule watches, chosen by name among the project's SLOs. */
export function SloSelect(props: { id: string; project: string; value: string; onChange(v: string): void; issue?: string | undefined }) {
  const slos = useQuery(slosOptions(props.project));
  const list = slos.data?.slos ?? [];
  return (
    <label htmlFor={props.id}>
      SLO
      <select id={props.id} value={props.value} aria-invalid={props.issue ? true : undefined} aria-describedby={props.issue ? `${props.id}-issue` : undefined} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{slos.isPending ? "loading SLOs…" : list.length === 0 ? "no SLOs yet: make one on the SLOs page" : "choose an SLO"}</option>
        {list.map((s) => (
          <option key={s.slo.id} value={String(s.slo.id)}>
            {s.slo.name}
          </option>
        ))}
      </select>
      {props.issue ? (
        <small id={`${props.id}-issue`} role="alert">
          {props.issue}
        </small>
      ) : null}
    </label>
  );
}
