// Flat config: the recommended JS and TypeScript rules everywhere, React hook rules (including the
// React Compiler checks) on components and pages. Not type-aware, to keep `npm run lint` quick.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { writeRoutesPlugin } from "./scripts/lint/write-routes.mjs";

export default tseslint.config(
  {
    ignores: ["node_modules/", ".next/", ".next-*/", "db/migrations/", "lib/runtime/npm/dist/", "bench/out/", "test-results/", "coverage/", "next-env.d.ts", "sdk/python/.venv*/", "sdk/python/build/", "sdk/python/dist/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are deliberately unused (rest-omit, positional callback arguments).
      // Client-sent text is checked and scrubbed for control characters on purpose.
      "no-control-regex": "off",
      // `cond ? a() : b()` and `x && f()` as statements are deliberate; a bare value is still an error.
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true, allowTernary: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // Short files with one purpose: a file that grows past this is split along its purposes.
    files: ["{app,components,lib,db,server,scripts,bench}/**/*.{ts,tsx,mjs,cjs,js}"],
    rules: { "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // The runtime's API is read by agent authors: options objects, not long positional lists.
    files: ["lib/runtime/**/*.ts"],
    rules: { "max-params": ["error", 4] },
  },
  {
    files: ["**/*.tsx", "components/**/*.ts", "app/**/*.ts", "lib/query/**/*.ts"],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Every write is one defineMutation (server/http/define-mutation.ts): it checks origin and CSRF,
    // the caller and the role before the body, and writes the change with its audit entries.
    files: ["app/**/route.ts"],
    plugins: { faultline: writeRoutesPlugin },
    rules: { "faultline/write-routes": "error" },
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["db/audit/**", "test/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/record-audit"], message: "Audit entries are written by auditedChange (db/audit/audited-change.ts): a change answers its entries." },
            { group: ["**/mutation-guard"], message: "Writes go through defineMutation (server/http/define-mutation.ts), which makes the origin and CSRF checks." },
          ],
        },
      ],
    },
  },
  {
    // The checks themselves.
    files: ["server/http/define-mutation.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // Node scripts and config files run outside the browser.
    files: ["**/*.mjs", "**/*.cjs", "**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", Buffer: "readonly", __dirname: "readonly", module: "writable", require: "readonly" } },
  },
  {
    // Process-wide state lives in one registry, which says why it must hang off globalThis (Next's
    // module copies); nothing else reaches for globalThis. The runtime library is exempt: it runs
    // outside Next and calls platform globals (fetch, CompressionStream) through it, never casting it.
    // bench/fake-timers.ts swaps the global timers on purpose: cockatiel reads them, and the bench
    // compares it with the runtime on one simulated clock.
    files: ["app/**", "components/**", "db/**", "server/**", "lib/**", "scripts/**", "bench/**", "proxy.ts", "instrumentation*.ts"],
    ignores: ["server/process-state.ts", "lib/runtime/**", "bench/fake-timers.ts"],
    rules: {
      "no-restricted-globals": ["error", { name: "globalThis", message: "process-wide state goes through processState() in server/process-state.ts" }],
    },
  },
  {
    files: ["lib/runtime/**"],
    rules: {
      "no-restricted-syntax": ["error", { selector: "TSAsExpression > Identifier.expression[name='globalThis']", message: "do not cast globalThis; state shared across module copies belongs in server/process-state.ts" }],
    },
  },
);
