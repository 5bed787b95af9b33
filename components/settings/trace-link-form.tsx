"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PRESET_TOOL_NAMES, TRACE_LINK_PRESETS, traceLinkInputSchema, traceLinkTemplate, type TraceLinkInput, type TraceLinkPreset } from "@/lib/contracts/trace-links";
import { auditLogKeys } from "@/lib/query/settings";
import { deleteTraceLink, putTraceLink, traceLinkQuery } from "@/lib/query/trace-links";
import styles from "./settings.module.css";

const PRESET_LABEL: Record<TraceLinkPreset, string> = { ...PRESET_TOOL_NAMES, custom: "Custom URL" };

/** The form's fields, all strings; which ones a preset reads is in FIELDS. */
type Fields = { baseUrl: string; projectId: string; datasourceUid: string; name: string; template: string };
const EMPTY: Fields = { baseUrl: "", projectId: "", datasourceUid: "", name: "", template: "" };

const FIELDS: Record<TraceLinkPreset, { key: keyof Fields; label: string; placeholder: string }[]> = {
  langfuse: [
    { key: "baseUrl", label: "Langfuse address", placeholder: "https://cloud.langfuse.com" },
    { key: "projectId", label: "Langfuse project id", placeholder: "clx…" },
  ],
  phoenix: [
    { key: "baseUrl", label: "Phoenix address", placeholder: "http://localhost:6006" },
    { key: "projectId", label: "Phoenix project id", placeholder: "UHJvamVjdDox" },
  ],
  jaeger: [{ key: "baseUrl", label: "Jaeger UI address", placeholder: "https://jaeger.example.com" }],
  tempo: [
    { key: "baseUrl", label: "Grafana address", placeholder: "https://grafana.example.com" },
    { key: "datasourceUid", label: "Tempo data source uid", placeholder: "tempo" },
  ],
  custom: [
    { key: "name", label: "Tool name", placeholder: "Honeycomb" },
    { key: "template", label: "URL template", placeholder: "https://ui.example.com/trace/{trace_id}?span={span_id}" },
  ],
};

const inputOf = (preset: TraceLinkPreset, f: Fields) => traceLinkInputSchema.safeParse({ preset, ...Object.fromEntries(FIELDS[preset].map(({ key }) => [key, f[key]])) });

function fieldsOf(settings: TraceLinkInput | undefined): Fields {
  return { ...EMPTY, ...(settings ? Object.fromEntries(Object.entries(settings).filter(([k]) => k !== "preset")) : {}) };
}

/**
 * The project's link to its tracing tool: admins pick a preset (or a URL template) and see the
 * template it makes before saving; other members see which tool is linked.
 */
export function TraceLinkForm({ project, canEdit }: { project: string; canEdit: boolean }) {
  const qc = useQueryClient();
  const current = useQuery(traceLinkQuery(project));
  const link = current.data?.link ?? null;
  const [preset, setPreset] = useState<TraceLinkPreset | null>(null);
  const [fields, setFields] = useState<Fields | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState("");
  const [busy, setBusy] = useState(false);
  const shownPreset = preset ?? link?.settings.preset ?? "langfuse";
  const shownFields = fields ?? fieldsOf(link?.settings);
  const parsed = inputOf(shownPreset, shownFields);
  const run = async (action: () => Promise<unknown>, what: string) => {
    setBusy(true);
    setProblem(null);
    setDone("");
    try {
      const answer = await action();
      qc.setQueryData(traceLinkQuery(project).queryKey, answer as never);
      setPreset(null);
      setFields(null);
      setDone(what);
      await qc.invalidateQueries({ queryKey: auditLogKeys(project) });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="trace-link-title">
      <h2 id="trace-link-title">Tracing tool</h2>
      <p className={styles.hint} data-testid="trace-link-current">
        {link ? `Run and attempt pages open traces in ${link.toolName}: ${link.template}` : "No tracing tool is linked: run and attempt pages show trace ids without a link."}
      </p>
      {canEdit ? (
        <form
          className={styles.form}
          aria-label="Tracing tool link"
          onSubmit={(e) => {
            e.preventDefault();
            if (parsed.success) void run(() => putTraceLink(project, parsed.data), `Saved: traces open in ${parsed.data.preset === "custom" ? parsed.data.name : PRESET_TOOL_NAMES[parsed.data.preset]}.`);
          }}
        >
          <label>
            Tool
            <select name="preset" value={shownPreset} onChange={(e) => setPreset(e.target.value as TraceLinkPreset)}>
              {TRACE_LINK_PRESETS.map((p) => (
                <option key={p} value={p}>
                  {PRESET_LABEL[p]}
                </option>
              ))}
            </select>
          </label>
          {FIELDS[shownPreset].map(({ key, label, placeholder }) => (
            <label key={key}>
              {label}
              <input name={key} value={shownFields[key]} placeholder={placeholder} autoComplete="off" onChange={(e) => setFields({ ...shownFields, [key]: e.target.value })} />
            </label>
          ))}
          <button type="submit" className="btn" disabled={busy || !parsed.success}>
            Save link
          </button>
          {link ? (
            <button type="button" className="btn" disabled={busy} onClick={() => void run(() => deleteTraceLink(project), "Removed: trace ids show without a link.")}>
              Remove link
            </button>
          ) : null}
        </form>
      ) : (
        <p className={styles.hint}>Only the project&apos;s admins can change the link.</p>
      )}
      {canEdit ? (
        <p className={styles.hint} data-testid="trace-link-preview">
          {parsed.success
            ? `Links will open ${traceLinkTemplate(parsed.data)}`
            : `Not yet valid: ${parsed.error.issues.map((i) => i.message).join("; ")}.`}
        </p>
      ) : null}
      <p role="status" className={styles.ok}>
        {done}
      </p>
      {problem && (
        <p role="alert" className={styles.problem}>
          Could not save the link: {problem}
        </p>
      )}
    </section>
  );
}
