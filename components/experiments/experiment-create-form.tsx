"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { createExperiment } from "@/lib/query/experiments";
import styles from "../alerts/alerts.module.css";

interface Draft {
  id: string;
  text: string;
  weight: number;
}

/** Even whole-percent shares that add up to 100 (the first variants take the remainder). */
const evenSplit = (n: number) => Array.from({ length: n }, (_, i) => Math.floor(100 / n) + (i < 100 % n ? 1 : 0));

/**
 * The create form of a draft experiment, prefilled from a code's wordings table (`?new=<code>&w=…`):
 * the first wording is the control. Admins only; the server says so to anyone else.
 */
export function ExperimentCreateForm({ project, code, tool, wordings, onCreated }: { project: string; code: string; tool: string; wordings: readonly string[]; onCreated: (id: string) => void }) {
  const qc = useQueryClient();
  const initial = wordings.length >= 2 ? wordings : [...wordings, ...["", ""]].slice(0, Math.max(2, wordings.length));
  const split = evenSplit(initial.length);
  const [id, setId] = useState(`${code}-wording`.replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 64));
  const [onTool, setOnTool] = useState(tool);
  const [variants, setVariants] = useState<Draft[]>(initial.map((text, i) => ({ id: i === 0 ? "control" : `v${i}`, text, weight: split[i]! })));
  const create = useMutation({
    mutationFn: () => createExperiment(project, { id, code, tool: onTool.trim() || null, variants }),
    onSuccess: async (d) => {
      await qc.invalidateQueries({ queryKey: ["experiments"] });
      onCreated(d.experiment.id);
    },
  });
  const set = (i: number, change: Partial<Draft>) => setVariants((vs) => vs.map((v, j) => (j === i ? { ...v, ...change } : v)));
  const total = variants.reduce((s, v) => s + v.weight, 0);
  return (
    <form
      className={styles.form}
      aria-label="New experiment"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2 className={styles.subtitle}>New experiment on {code}</h2>
      <label>
        Experiment id <input value={id} onChange={(e) => setId(e.target.value)} required pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}" />
      </label>
      <label>
        Only the tool (empty: every tool) <input value={onTool} onChange={(e) => setOnTool(e.target.value)} />
      </label>
      {variants.map((v, i) => (
        <fieldset key={i}>
          <legend>{i === 0 ? "Control" : `Variant ${i}`}</legend>
          <label>
            Variant id <input value={v.id} onChange={(e) => set(i, { id: e.target.value })} required />
          </label>
          <label>
            Wording <textarea value={v.text} onChange={(e) => set(i, { text: e.target.value })} required maxLength={1000} rows={2} />
          </label>
          <label>
            Share of runs (%) <input type="number" min={0} max={100} value={v.weight} onChange={(e) => set(i, { weight: Number(e.target.value) })} required />
          </label>
        </fieldset>
      ))}
      <div className={styles.actions}>
        {variants.length < 4 ? (
          <button type="button" onClick={() => setVariants((vs) => [...vs, { id: `v${vs.length}`, text: "", weight: 0 }])}>
            Add a wording
          </button>
        ) : null}
        <span className={styles.muted}>shares add up to {total}%</span>
        <button type="submit" disabled={create.isPending}>
          Create draft
        </button>
      </div>
      {create.error ? <p role="alert">{create.error.message}</p> : null}
    </form>
  );
}
