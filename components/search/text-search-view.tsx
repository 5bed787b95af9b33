"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatTime } from "@/lib/charts/time-format";
import type { TextHit } from "@/lib/contracts/text-search";
import { textSearchOptions } from "@/lib/query/text-search";
import styles from "../alerts/alerts.module.css";
import { SnippetText } from "./snippet-text";

const FIELD_LABEL: Record<TextHit["field"], string> = { message: "error message", told: "told the model" };

function hitHref(hit: TextHit, project: string): string {
  const params = new URLSearchParams();
  if (project !== "default") params.set("project", project);
  if (hit.spanId) params.set("attempt", hit.spanId);
  const qs = params.toString();
  return `/runs/${encodeURIComponent(hit.runId)}${qs ? `?${qs}` : ""}`;
}

/** Full-text search over error messages and told texts (`/search?q=`), results with their matches marked. */
export function TextSearchView() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const project = search.get("project") || "default";
  const q = search.get("q")?.trim() ?? "";
  const field = search.get("field") === "message" || search.get("field") === "told" ? (search.get("field") as TextHit["field"]) : "";
  const { zone } = useTimeZone();
  const result = useQuery({ ...textSearchOptions(project, q, field), enabled: q !== "" });
  const go = (changes: Record<string, string>) => {
    const next = new URLSearchParams(search.toString());
    for (const [k, v] of Object.entries(changes)) if (v) next.set(k, v);
    else next.delete(k);
    router.push(`${pathname}?${next.toString()}`);
  };
  const runsHref = () => {
    const params = new URLSearchParams();
    if (project !== "default") params.set("project", project);
    params.set("text", q);
    return `/runs?${params.toString()}`;
  };
  return (
    <section className={styles.page} aria-labelledby="search-title">
      <h1 id="search-title" className={styles.title}>
        Search error messages and told texts
      </h1>
      <form
        key={`${q} ${field}`}
        className={styles.actions}
        role="search"
        aria-label="Text search"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          go({ q: String(data.get("q") ?? "").trim(), field: String(data.get("field") ?? "") });
        }}
      >
        <label>
          Words{" "}
          <input name="q" type="search" defaultValue={q} placeholder='words, "a phrase", prefix*' aria-description='Every word must match; quote a phrase; end a word with * to match its start.' data-testid="text-search-input" />
        </label>
        <label>
          In{" "}
          <select name="field" defaultValue={field}>
            <option value="">error messages and told texts</option>
            <option value="message">error messages</option>
            <option value="told">told texts</option>
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <div className={styles.panel} aria-live="polite">
        {q === "" ? (
          <p className={styles.muted}>Type words found in an error message or in what a model was told.</p>
        ) : result.isPending ? (
          <p className={styles.muted}>Searching…</p>
        ) : result.error ? (
          <p role="alert" data-testid="text-search-error">
            Cannot search: {result.error.message}
          </p>
        ) : result.data.hits.length === 0 ? (
          <p className={styles.muted} data-testid="text-search-status">
            No error message or told text matches “{q}”.
          </p>
        ) : (
          <>
            <p className={styles.muted} data-testid="text-search-status">
              {result.data.hits.length} {result.data.hits.length === 1 ? "call" : "calls"} in {result.data.runs} {result.data.runs === 1 ? "run" : "runs"}
              {result.data.truncated ? " (the newest; more match: narrow the words)" : ""} · <Link href={runsHref()}>show these runs in the Runs list</Link>
            </p>
            <ol className="text-hits" data-testid="text-hits">
              {result.data.hits.map((hit) => (
                <li key={`${hit.field}:${hit.runId}:${hit.callId}`}>
                  <div>
                    <Link href={hitHref(hit, project)}>
                      <span className="mono">{hit.tool}</span> · call <span className="mono">{hit.callId}</span> in run <span className="mono">{hit.runId}</span>
                    </Link>{" "}
                    <span className={styles.muted}>
                      {FIELD_LABEL[hit.field]}
                      {hit.code ? ` · ${hit.code}` : ""} · {formatTime(hit.at, zone)}
                      {hit.matches > 1 ? ` · ${hit.matches} attempts` : ""}
                    </span>
                  </div>
                  <SnippetText snippet={hit.snippet} />
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </section>
  );
}
