import { z } from "zod";

// Apart from ./overview.ts: the Tools and Codes reads draw the same series without the overview's contract.

/** Sparse: a bucket without a row had no attempts of that outcome (a zero, not a gap). */
export const outcomePointSchema = z.object({ t: z.number(), outcome: z.string(), attempts: z.number() });
