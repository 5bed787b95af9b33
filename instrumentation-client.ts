import { z } from "zod";

// Next runs this before the app's client code. zod probes `new Function` when a schema is built, to
// decide whether to compile object parsers; under the dashboard's CSP (no 'unsafe-eval') the browser
// blocks the probe and reports a violation even though zod catches it. Switching the compiler off
// here, before any contract module builds a schema, keeps the page free of violations (the browser's
// answers are small; the server keeps compiling).
z.config({ jitless: true });
