"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { QueryError } from "@/components/dashboard/query-error";
import { roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import { classificationRuleSchema, type ClassificationRule, type RuleMatch } from "@/lib/contracts/classification";
import { classificationProgressQuery, classificationRulesQuery } from "@/lib/query/classification";
import { sendJson } from "@/lib/query/mutate";
import { z } from "zod";
import { ProjectTabs } from "./project-tabs";

const conditions = (m: RuleMatch): string =>
  [
    m.tool && `tool ${m.tool}`, m.errorType && `error type ${m.errorType}`, m.message && `message ${m.message}`,
    m.httpStatus.length > 0 && `HTTP ${m.httpStatus.join(", ")}`, ...m.attributes.map((a) => `${a.key} = ${a.value}`),
  ].filter(Boolean).join(" and ");

const sets = (r: ClassificationRule): string =>
  [r.set.code, r.set.errorClass, r.set.retryable === null ? null : r.set.retryable ? "retryable" : "not retryable", r.overrideEmitter ? "overrides the emitter's code" : null].filter(Boolean).join(" · ");

/** The project's classification rules in order (first match wins), the built-in pack and its switch, and the re-classification of history. */
export function ClassificationRulesView({ project, role }: { project: string; role: ProjectRole }) {
  const qc = useQueryClient();
  const q = useQuery(classificationRulesQuery(project));
  const progress = useQuery(classificationProgressQuery(project));
  const [problem, setProblem] = useState<string | null>(null);
  const admin = roleAtLeast(role, "admin");
  const act = async (work: Promise<unknown>) => {
    setProblem(null);
    try {
      await work;
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
    await qc.invalidateQueries();
  };
  const rules = q.data?.rules ?? [];
  const move = (i: number, by: -1 | 1) => {
    const ids = rules.map((r) => r.id);
    [ids[i], ids[i + by]] = [ids[i + by]!, ids[i]!];
    return act(sendJson("POST", "/api/v1/classification/rules/order", z.unknown(), { project, ids }));
  };
  const put = (r: ClassificationRule, enabled: boolean) =>
    act(sendJson("PUT", `/api/v1/classification/rules/${r.id}`, classificationRuleSchema, { project, name: r.name, enabled, match: r.match, set: r.set, overrideEmitter: r.overrideEmitter }));
  const p = progress.data;
  return (
    <>
      <div className="page-head"><h1>Settings · {project}</h1></div>
      <ProjectTabs project={project} role={role} current="/classification" />
      {q.error && <QueryError error={q.error} stale={false} />}
      {problem && <p role="alert">{problem}</p>}
      <section className="panel" aria-label="Classification rules">
        <h2>Classification rules</h2>
        <p className="sub">Tried in order on every failure without a code (and, when a rule says so, over the emitter&apos;s code); the first that matches sets the code. Name failures from the Codes page.</p>
        {p && <p role="status" aria-label="Re-classification">{p.upToDate ? `History is classified by the current rules (revision ${p.revision}).` : `Re-classifying history: ${p.examined} of ${p.total} stored failures…`}</p>}
        {rules.length === 0 ? <p>No rules yet.</p> : (
          <table>
            <thead><tr><th>#</th><th>Name</th><th>When</th><th>Sets</th><th>Version</th><th>On</th>{admin && <th />}</tr></thead>
            <tbody>
              {rules.map((r, i) => (
                <tr key={r.id}>
                  <td>{i + 1}</td><td>{r.name}</td><td>{conditions(r.match)}</td><td>{sets(r)}</td><td>{r.version}</td><td>{r.enabled ? "yes" : "no"}</td>
                  {admin && (
                    <td>
                      <button type="button" disabled={i === 0} onClick={() => void move(i, -1)}>Up</button>
                      <button type="button" disabled={i === rules.length - 1} onClick={() => void move(i, 1)}>Down</button>
                      <button type="button" onClick={() => void put(r, !r.enabled)}>{r.enabled ? "Disable" : "Enable"}</button>
                      <button type="button" onClick={() => void act(sendJson("DELETE", `/api/v1/classification/rules/${r.id}`, z.unknown()))}>Delete</button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel" aria-label="Built-in rules">
        <h2>Built-in rules</h2>
        <label>
          <input type="checkbox" disabled={!admin || !q.data} checked={q.data?.builtinEnabled ?? true}
            onChange={(e) => void act(sendJson("POST", "/api/v1/classification/builtin", z.unknown(), { project, enabled: e.target.checked }))} />
          Apply the built-in rules after the project&apos;s own (HTTP statuses, provider SDK errors, timeouts, connection errors, validation, MCP errors)
        </label>
        <table>
          <thead><tr><th>Rule</th><th>Matches</th><th>Code</th><th>Class</th><th>Retryable</th></tr></thead>
          <tbody>
            {(q.data?.builtin ?? []).map((b) => (
              <tr key={b.id}><td>{b.id}</td><td>{b.description}</td><td>{b.code}</td><td>{b.errorClass ?? "—"}</td><td>{b.retryable === null ? "unknown" : b.retryable ? "yes" : "no"}</td></tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
