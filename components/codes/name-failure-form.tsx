"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ERROR_CLASSES } from "@/lib/contracts/enums";
import type { FailureGroup } from "@/lib/contracts/classification";
import { classificationPreviewQuery, classificationProgressQuery, createClassificationRule } from "@/lib/query/classification";

type Tri = "keep" | "yes" | "no";

/**
 * "Name this failure": a typed form prefilled from a group (its tool, error type, message shape and
 * HTTP status as the conditions), the exact preview of what the rule would do to stored failures of
 * the window, then the re-classification of history with its progress once saved.
 */
export function NameFailureForm(props: { project: string; range: string | undefined; group: FailureGroup; onClose(): void }) {
  const { group, project } = props;
  const qc = useQueryClient();
  const [code, setCode] = useState("");
  const [errorClass, setErrorClass] = useState<string>("");
  const [retryable, setRetryable] = useState<Tri>("keep");
  const [tool, setTool] = useState(group.tool);
  const [errorType, setErrorType] = useState(group.errorType ?? "");
  const [message, setMessage] = useState(group.shape);
  const [status, setStatus] = useState(group.httpStatus === null ? "" : String(group.httpStatus));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const codeOk = /^[A-Za-z0-9_.:-]{1,128}$/.test(code.trim());
  const search: Record<string, string> = { project, code: code.trim(), tool, errorType, message, httpStatus: status };
  if (props.range) search.range = props.range;
  if (errorClass) search.errorClass = errorClass;
  if (retryable !== "keep") search.retryable = retryable === "yes" ? "true" : "false";
  const preview = useQuery({ ...classificationPreviewQuery(search), enabled: codeOk && !saved });
  const progress = useQuery({ ...classificationProgressQuery(project), enabled: saved });
  const done = saved && progress.data?.upToDate === true && progress.data.appliedRevision === progress.data.revision;

  const save = async () => {
    setProblem(null);
    try {
      await createClassificationRule(project, {
        name: `${code.trim()} (${group.tool})`, enabled: true, overrideEmitter: false,
        match: { tool: tool || null, errorType: errorType || null, message: message || null, httpStatus: status ? status.split(",").map((s) => Number(s.trim())) : [], attributes: [] },
        set: { code: code.trim(), errorClass: (errorClass || null) as (typeof ERROR_CLASSES)[number] | null, retryable: retryable === "keep" ? null : retryable === "yes" },
      });
      setSaved(true);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  // Once history is re-classified, every page's counts (codes, groups) are read again.
  useEffect(() => {
    if (done) void qc.invalidateQueries({ predicate: (q) => !String(q.queryKey[0]).startsWith("classification-") });
  }, [done, qc]);

  return (
    <form className="panel" aria-label="Name this failure" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <div className="panel-head">
        <h3>Name this failure</h3>
        <button type="button" onClick={props.onClose}>Close</button>
      </div>
      <fieldset disabled={saved}>
        <label>Code <input name="code" value={code} onChange={(e) => setCode(e.target.value)} required maxLength={128} placeholder="booking_not_found" /></label>
        <label>
          Class
          <select name="errorClass" value={errorClass} onChange={(e) => setErrorClass(e.target.value)}>
            <option value="">keep the span's</option>
            {ERROR_CLASSES.map((c) => <option key={c} value={c}>{c}{c === "ToolRefusal" ? " (declined: the tool said no)" : c === "ToolNotPermittedError" ? " (refused: permission said no)" : ""}</option>)}
          </select>
        </label>
        <label>
          Retryable
          <select name="retryable" value={retryable} onChange={(e) => setRetryable(e.target.value as Tri)}>
            <option value="keep">keep the span's</option>
            <option value="yes">yes</option>
            <option value="no">no</option>
          </select>
        </label>
        <p className="sub">Matches failures where all of these hold (globs: * any text, ? one character; empty = any):</p>
        <label>Tool <input name="tool" value={tool} onChange={(e) => setTool(e.target.value)} /></label>
        <label>Error type <input name="errorType" value={errorType} onChange={(e) => setErrorType(e.target.value)} /></label>
        <label>Message or its shape <input name="message" value={message} onChange={(e) => setMessage(e.target.value)} /></label>
        <label>HTTP status <input name="httpStatus" value={status} onChange={(e) => setStatus(e.target.value)} placeholder="429, 503" /></label>
      </fieldset>
      {!saved && (
        <p role="status" aria-label="Preview">
          {!codeOk ? "Enter a code to preview." : preview.isPending ? "Counting…" : preview.error ? `Cannot preview: ${preview.error.message}` : preview.data
            ? `Would classify ${preview.data.matched} of ${preview.data.examined} stored failures in this window: ${preview.data.unclassifiedNow} unclassified now, ${preview.data.changesCoded} already-coded would change.`
            : null}
        </p>
      )}
      {problem && <p role="alert">{problem}</p>}
      {!saved && <button type="submit" disabled={!codeOk}>Save rule</button>}
      {saved && (
        <p role="status" aria-label="Re-classification">
          {progress.data
            ? done
              ? `History re-classified: ${progress.data.changed} of ${progress.data.examined} stored failures changed.`
              : `Re-classifying history: ${progress.data.examined} of ${progress.data.total} stored failures…`
            : "Re-classifying history…"}
        </p>
      )}
    </form>
  );
}
