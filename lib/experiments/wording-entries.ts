import type { Experiment } from "@/lib/contracts/experiments";
import type { WordingEntry } from "@/lib/contracts/wordings";

type Source = Pick<Experiment, "id" | "code" | "tool" | "state" | "variants" | "winner" | "startedAt" | "stoppedAt">;

/**
 * A project's wording set from its experiments: one entry per (code, tool). A running experiment
 * wins over a promoted winner of the same code and tool (it is the newer question); among promoted
 * winners the latest promotion wins. A promoted entry carries only the winning wording, at 100 %.
 */
export function wordingEntries(experiments: readonly Source[]): WordingEntry[] {
  const rank = (e: Source): [number, number] => (e.state === "running" ? [1, e.startedAt ?? 0] : [0, e.stoppedAt ?? 0]);
  const byKey = new Map<string, Source>();
  for (const e of experiments) {
    if (e.state !== "running" && e.state !== "stopped_winner") continue;
    const key = `${e.tool ?? ""}\u0000${e.code}`;
    const held = byKey.get(key);
    const [a1, a2] = rank(e);
    const [b1, b2]: [number, number] = held ? rank(held) : [-1, 0];
    if (!held || a1 > b1 || (a1 === b1 && (a2 > b2 || (a2 === b2 && e.id > held.id)))) byKey.set(key, e);
  }
  const out: WordingEntry[] = [];
  for (const e of byKey.values()) {
    if (e.state === "running") {
      out.push({ code: e.code, tool: e.tool, experiment: e.id, state: "running", variants: e.variants });
      continue;
    }
    const winner = e.variants.find((v) => v.id === e.winner);
    if (winner) out.push({ code: e.code, tool: e.tool, experiment: e.id, state: "promoted", variants: [{ ...winner, weight: 100 }] });
  }
  return out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : (a.tool ?? "") < (b.tool ?? "") ? -1 : 1));
}
