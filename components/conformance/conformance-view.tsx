"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { conformanceOptions } from "@/lib/query/conformance";
import styles from "./conformance.module.css";
import { CodeSourcesTable } from "./code-sources-table";
import { EmitterNotes } from "./emitter-notes";
import { EmittersTable } from "./emitters-table";
import { GAP_NOTES } from "./source-labels";
import { SourcesTable } from "./sources-table";

/** Per ingest format and per emitter, what the project's tool spans send, what Faultline derived and what is unknown. */
export function ConformanceView() {
  const project = useSearchParams().get("project") || "default";
  const { data, error, isPending } = useQuery(conformanceOptions(project));
  return (
    <section className={styles.page} aria-labelledby="conformance-title">
      <h1 id="conformance-title" className={styles.title}>
        Conformance
      </h1>
      <p className={styles.muted}>
        What the ingested tool spans of project <span className={styles.mono}>{project}</span> carry. A field a span does not
        send is derived where Faultline can work it out from the rest of the input (the stored span says so), and otherwise
        stored as unknown. By format, the share of spans left unknown:
      </p>
      {/* Focusable and named: on a phone the panel scrolls sideways, and a keyboard must reach it. */}
      <div className={styles.panel} role="region" aria-label="Spans left unknown, by format" tabIndex={0}>
        {isPending ? (
          <p className={styles.muted}>Loading…</p>
        ) : error ? (
          <p role="alert">Could not load conformance: {error.message}</p>
        ) : data.sources.length === 0 ? (
          <p className={styles.muted}>No tool spans have been ingested for this project yet.</p>
        ) : (
          <SourcesTable sources={data.sources} />
        )}
      </div>
      {data && data.emitters.length > 0 ? (
        <section className={styles.panel} aria-labelledby="emitters-title" tabIndex={0}>
          <h2 id="emitters-title" className={styles.subtitle}>
            By emitter
          </h2>
          <p className={styles.muted}>
            Per sending service and the convention its spans follow, each span counted once per field: sent by the emitter, derived by
            Faultline, or missing (unknown); and the spans that looked like tool calls but were not stored. Missing counts agree with
            the table above. Below: how each derived field was worked out, and what to send only where it would change what is stored.
          </p>
          <EmittersTable emitters={data.emitters} />
          <EmitterNotes emitters={data.emitters} />
        </section>
      ) : null}
      {data && data.codeSources.length > 0 ? (
        <section className={styles.panel} aria-labelledby="code-sources-title" data-testid="code-sources">
          <h2 id="code-sources-title" className={styles.subtitle}>
            Where failure codes came from
          </h2>
          <p className={styles.muted}>
            Stored failures and refusals (within raw retention) by format and service: the code the emitter sent, one a project
            classification rule set, one the built-in pack set, or none yet. The tables above count what the emitter sent, so a rule
            never hides a missing code there.
          </p>
          <CodeSourcesTable rows={data.codeSources} />
        </section>
      ) : null}
      <ul className={styles.muted}>
        {Object.values(GAP_NOTES).map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
    </section>
  );
}
