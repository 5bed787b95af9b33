// Type-level checks of defineMutation, run by `tsc` (npm run lint), never executed: each
// `@ts-expect-error` below must be an error, or tsc fails with "Unused '@ts-expect-error' directive".
// A write that forgets its audit entry, its caller check or its CSRF check does not compile.
import { z } from "zod";
import { noChange } from "@/db/audit/audited-change";
import { defineMutation } from "@/server/http/define-mutation";

const body = z.object({ project: z.string(), name: z.string() });

export const typeChecks = [
  // The shape every write has: a caller check, and the audit entry the change answers.
  defineMutation({
    body,
    access: { project: "body", minimum: "admin" },
    change: async (_tx, { body: b }) => ({ result: b.name, audit: { projectId: b.project, action: "rule.created", target: b.name } }),
  }),
  // Nothing changed: said explicitly, with the reason.
  defineMutation({ access: "signed-in", change: async () => ({ result: null, audit: noChange("already as asked") }) }),

  // @ts-expect-error a change must answer its audit entry
  defineMutation({ access: "signed-in", change: async () => ({ result: null }) }),
  // @ts-expect-error an empty list of audit entries is not "no change": that needs noChange(reason)
  defineMutation({ access: "signed-in", change: async () => ({ result: null, audit: [] }) }),
  // @ts-expect-error an audit entry names a known action
  defineMutation({ access: "signed-in", change: async () => ({ result: null, audit: { projectId: null, action: "rule.renamed" } }) }),
  // @ts-expect-error a write says who may make it
  defineMutation({ change: async () => ({ result: null, audit: noChange("x") }) }),
  // @ts-expect-error the CSRF and origin checks cannot be switched off
  defineMutation({ access: "signed-in", csrf: false, change: async () => ({ result: null, audit: noChange("x") }) }),
  // @ts-expect-error a write open to anyone names one of the known reasons (PublicWrite)
  defineMutation({ access: { anyone: "convenience" }, change: async () => ({ result: null, audit: noChange("x") }) }),
  defineMutation({
    access: { anyone: "sign-out" },
    // @ts-expect-error an open write's caller may be nobody: it must be checked before use
    change: async (_tx, { caller }) => ({ result: caller.kind, audit: noChange("x") }),
  }),
  defineMutation({ access: "signed-in", change: async (_tx, { caller }) => ({ result: caller.kind, audit: noChange("a checked caller is never null") }) }),
];
