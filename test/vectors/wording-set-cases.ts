// Answers of the wording endpoint (lib/contracts/wordings.ts), shared with the Python package: what
// the TypeScript runtime's WordingSet keeps of each (texts scrubbed and bounded), or the path of the
// first problem for which it refuses the answer whole. Written to test/vectors/wording-set.json.
import { WordingSet } from "@/lib/runtime";

const variant = (id: string, text: string, weight: number) => ({ id, text, weight });
const entry = (over: Record<string, unknown> = {}) => ({
  code: "fare_class_unavailable", tool: null, experiment: "fare-wording", state: "running",
  variants: [variant("control", "fare class no longer sold", 50), variant("pick-another", "pick another fare class from the search_flights results", 50)],
  ...over,
});
const answer = (...entries: unknown[]) => ({ project: "default", entries });

const ANSWERS: { name: string; answer: unknown }[] = [
  { name: "no entries", answer: answer() },
  { name: "a running experiment", answer: answer(entry()) },
  { name: "a promoted winner on one tool", answer: answer(entry({ tool: "book_flight", state: "promoted", variants: [variant("pick-another", "pick another fare class", 100)] })) },
  { name: "a later entry of the same code and tool wins", answer: answer(entry({ experiment: "old" }), entry({ tool: "book_flight" }), entry({ experiment: "new" })) },
  { name: "surrounding whitespace trimmed, tool name trimmed", answer: answer(entry({ tool: "  book_flight ", variants: [variant("a", "  padded  ", 50), variant("b", "\ttabbed\n", 50)] })) },
  { name: "a secret in a wording is scrubbed", answer: answer(entry({ variants: [variant("a", "see https://bob:hunter22@x.example/y", 50), variant("b", "mail ada@example.com", 50)] })) },
  { name: "a scrubbed wording past 1000 characters is cut", answer: answer(entry({ variants: [variant("a", `${"w".repeat(960)} password=hunter2 ${"z".repeat(20)}`, 100)] })) },
  { name: "weights as 50.0", answer: JSON.parse('{"project":"p","entries":[{"code":"c","tool":null,"experiment":"e","state":"running","variants":[{"id":"a","text":"A","weight":50.0},{"id":"b","text":"B","weight":50}]}]}') as unknown },
  { name: "refused: not an object", answer: [] },
  { name: "refused: no project", answer: { entries: [] } },
  { name: "refused: entries not a list", answer: { project: "p", entries: {} } },
  { name: "refused: an empty code", answer: answer(entry({ code: "" })) },
  { name: "refused: a control character in the code", answer: answer(entry({ code: "fare\nclass" })) },
  { name: "refused: a blank tool", answer: answer(entry({ tool: "   " })) },
  { name: "refused: no tool key (null is every tool, absent is nothing)", answer: answer((({ tool: _tool, ...rest }) => rest)(entry())) },
  { name: "refused: an experiment id of 65 characters", answer: answer(entry({ experiment: "e".repeat(65) })) },
  { name: "refused: an unknown state", answer: answer(entry({ state: "paused" })) },
  { name: "refused: no variants", answer: answer(entry({ variants: [] })) },
  { name: "refused: five variants", answer: answer(entry({ variants: ["a", "b", "c", "d", "e"].map((id) => variant(id, id, 20)) })) },
  { name: "refused: a blank text", answer: answer(entry({ variants: [variant("a", "   ", 50), variant("b", "B", 50)] })) },
  { name: "refused: a text of 1001 characters", answer: answer(entry({ variants: [variant("a", "x".repeat(1001), 100)] })) },
  { name: "refused: a fractional weight", answer: answer(entry({ variants: [variant("a", "A", 50.5), variant("b", "B", 49.5)] })) },
  { name: "refused: a weight over 100", answer: answer(entry({ variants: [variant("a", "A", 101)] })) },
  { name: "refused: a weight given as text", answer: answer(entry({ variants: [variant("a", "A", "50" as unknown as number)] })) },
  { name: "refused: the second entry is broken", answer: answer(entry(), entry({ state: "promoted", variants: [{ id: "a", text: "A" }] })) },
];

/** What the runtime keeps of one answer: its entries (one per code and tool, in first-seen order), or where it is refused. */
function kept(input: unknown): { entries: unknown[] } | { error_path: string } {
  try {
    const set = WordingSet.parse(input);
    const seen = new Map<string, { code: string; tool: string | null }>();
    for (const e of (input as { entries: { code: string; tool: string | null }[] }).entries) {
      const tool = typeof e.tool === "string" ? e.tool.trim() : null;
      if (!seen.has(`${tool}\u0000${e.code}`)) seen.set(`${tool}\u0000${e.code}`, { code: e.code, tool });
    }
    // A code-wide entry answers for a tool without its own; "" is no tool name, so it finds exactly that one.
    return { entries: [...seen.values()].map(({ code, tool }) => set.entryFor(code, tool ?? "")) };
  } catch (error) {
    const match = /^not a wording set: ([^:]*):/.exec((error as Error).message);
    if (!match) throw error;
    return { error_path: match[1]! };
  }
}

/** The wording-set vector. */
export function wordingSetVector() {
  return ANSWERS.map(({ name, answer }) => ({ name, answer, ...kept(answer) }));
}
