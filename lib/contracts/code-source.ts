import { z } from "zod";

// Apart from ./classification.ts: a run's timeline names its codes' sources without the rules' contracts.

/** Where a stored span's code came from. */
export const codeSourceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("emitter") }),
  z.object({ kind: z.literal("rule"), ruleId: z.string(), version: z.number().int(), name: z.string().nullable() }),
  z.object({ kind: z.literal("builtin"), ruleId: z.string(), version: z.number().int() }),
  z.object({ kind: z.literal("none") }),
]);
export type CodeSource = z.output<typeof codeSourceSchema>;
