"use client";

import { useQuery } from "@tanstack/react-query";
import { ChartFrame } from "@/components/charts/chart-states";
import { AdoptionChart } from "@/components/dashboard/lazy-charts";
import { prepareAdoption } from "@/lib/charts/adoption";
import { releasesOptions } from "@/lib/query/releases";

const H = 220;

/** The share of runs on each release per day over the last `days` days (30 unless given); `highlight` brings one release forward. */
export function AdoptionPanel({ project, highlight, days = 30 }: { project: string; highlight?: string; days?: number }) {
  const q = useQuery(releasesOptions(project, days));
  const last = days === 1 ? "last day" : `last ${days} days`;
  const data = q.data ? prepareAdoption(q.data.adoption, q.data.releases.map((r) => r.release)) : null;
  return (
    <section className="panel" aria-labelledby="adoption-title">
      <h2 id="adoption-title">Adoption: share of runs per release, per day ({last}, UTC)</h2>
      <ChartFrame
        label="Share of runs on each release per day"
        height={H}
        state={q.isPending ? "loading" : q.error ? "error" : !data || data.empty ? "empty" : "ready"}
        message={q.error ? `Could not load adoption: ${q.error.message}` : `No run started in the ${last}.`}
      >
        {data && <AdoptionChart data={data} height={H} {...(highlight ? { highlight } : {})} />}
      </ChartFrame>
    </section>
  );
}
