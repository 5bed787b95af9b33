"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { experimentsOptions } from "@/lib/query/experiments";
import styles from "../alerts/alerts.module.css";
import { ExperimentCreateForm } from "./experiment-create-form";
import { ExperimentDetail } from "./experiment-detail";

/**
 * The project's wording experiments (docs/experiments.md): the list, the create form when a code's
 * wordings table sent the admin here (`?new=<code>&tool=…&w=…`), and the selected one (`?id=`).
 */
export function ExperimentsView() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const project = search.get("project") || "default";
  const selected = search.get("id");
  const newCode = search.get("new");
  const { data, error } = useQuery({ ...experimentsOptions(project), refetchInterval: 5000 });
  const hrefFor = (id: string) => `${pathname}?${new URLSearchParams({ project, id }).toString()}`;
  return (
    <section className={styles.page} aria-labelledby="experiments-title">
      <h1 id="experiments-title" className={styles.title}>
        Experiments
      </h1>
      <p className={styles.muted}>
        Several wordings of one code, told at random per run; the verdict stays valid however often you look. Start one from a code&apos;s wordings table.
      </p>
      {newCode ? (
        <ExperimentCreateForm project={project} code={newCode} tool={search.get("tool") ?? ""} wordings={search.getAll("w")} onCreated={(id) => router.replace(hrefFor(id))} />
      ) : null}
      {error ? <p role="alert">{error.message}</p> : null}
      {data ? (
        data.experiments.length === 0 ? (
          <p className="note">No experiment yet.</p>
        ) : (
          <table className={styles.table} data-testid="experiments">
            <thead>
              <tr>
                <th scope="col">experiment</th>
                <th scope="col">code</th>
                <th scope="col">tool</th>
                <th scope="col">wordings</th>
                <th scope="col">state</th>
              </tr>
            </thead>
            <tbody>
              {data.experiments.map((e) => (
                <tr key={e.id} data-experiment={e.id} aria-current={e.id === selected ? "true" : undefined}>
                  <th scope="row">
                    <Link href={hrefFor(e.id)}>{e.id}</Link>
                  </th>
                  <td className={styles.mono}>{e.code}</td>
                  <td>{e.tool ?? "every tool"}</td>
                  <td>{e.variants.map((v) => `${v.id} ${v.weight}%`).join(", ")}</td>
                  <td>{e.state.replace("_", " ")}{e.winner ? `: ${e.winner}` : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : (
        <p className="note">Loading…</p>
      )}
      {selected ? <ExperimentDetail project={project} id={selected} /> : null}
    </section>
  );
}
