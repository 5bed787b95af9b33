// `npm test`: build the app when needed (the API and browser tests run against `next start`), run
// every vitest project, and print a plain "N passed, N failed" line for CI.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensurePythonEnv } from "./python-env.mjs";
import { runPythonChecks } from "./python-tests.mjs";

const root = process.cwd();
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const args = process.argv.slice(2);

if (!process.env.FAULTLINE_SKIP_BUILD) {
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], { stdio: "inherit", env });
  if (build.status !== 0) {
    console.log("0 passed, 1 failed");
    process.exit(build.status ?? 1);
  }
}

// The API suite's cross-language test runs the Python package: its environment is built first.
if (!process.env.FAULTLINE_SKIP_PYTHON) ensurePythonEnv();

const report = path.join(mkdtempSync(path.join(tmpdir(), "faultline-vitest-")), "report.json");
const vitest = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...args],
  { stdio: "inherit", env },
);

let passed = 0;
// Without a report vitest itself failed (a config error, a crash): one failure.
let failed = 1;
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, "utf8"));
  passed = json.numPassedTests ?? 0;
  // A file that failed outside its tests (an import or a beforeAll) counts once; numFailedTestSuites
  // would also count every describe block around a failed test, counting that test twice or more.
  const fileErrors = (json.testResults ?? []).filter((f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed")).length;
  failed = (json.numFailedTests ?? 0) + fileErrors;
}
// The Python SDK (sdk/python) after vitest; skipped when vitest was asked for particular files.
if (args.length === 0 && !process.env.FAULTLINE_SKIP_PYTHON) {
  const python = runPythonChecks(env);
  passed += python.passed;
  failed += python.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);
