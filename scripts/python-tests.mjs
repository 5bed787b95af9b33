// The Python SDK's checks for `npm test`: pytest (counted from its JUnit XML report) and
// `mypy --strict` (one check: passed or failed). Creates the virtual environment when missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensurePythonEnv, sdkDir, venvPython } from "./python-env.mjs";

/** Sums the counts of every <testsuite> of a JUnit XML report. */
export function junitCounts(xml) {
  let tests = 0;
  let bad = 0;
  let skipped = 0;
  for (const m of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
    const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(m[1])?.[1] ?? 0);
    tests += attr("tests");
    bad += attr("failures") + attr("errors");
    skipped += attr("skipped");
  }
  return { passed: tests - bad - skipped, failed: bad, skipped };
}

/** Runs pytest and mypy; returns their counts. A missing environment or report counts as one failure. */
export function runPythonChecks(env = process.env) {
  const problem = ensurePythonEnv();
  if (problem) {
    console.error(`Python SDK checks not run: ${problem}`);
    return { passed: 0, failed: 1 };
  }
  const report = path.join(mkdtempSync(path.join(tmpdir(), "faultline-pytest-")), "junit.xml");
  spawnSync(venvPython, ["-m", "pytest", "-q", `--junitxml=${report}`], { stdio: "inherit", cwd: sdkDir, env });
  const counts = existsSync(report) ? junitCounts(readFileSync(report, "utf8")) : { passed: 0, failed: 1 };
  const mypy = spawnSync(venvPython, ["-m", "mypy", "--strict"], { stdio: "inherit", cwd: sdkDir, env });
  if (mypy.status === 0) counts.passed++;
  else counts.failed++;
  console.log(`Python SDK: ${counts.passed} passed, ${counts.failed} failed (pytest + mypy --strict)`);
  return counts;
}
