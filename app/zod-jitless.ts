import { z } from "zod";

// zod probes `new Function` once to decide whether to compile object parsers. Under the dashboard's
// CSP (no 'unsafe-eval') the browser blocks the probe and reports a violation even though zod catches
// it, so the browser parses without compiling (its answers are small); the server keeps compiling.
if (typeof window !== "undefined") z.config({ jitless: true });
