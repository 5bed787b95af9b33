// The Python SDK's checks for `npm test`: pytest in the main environment and the CrewAI suite in
// its own (counted from their JUnit XML reports), and `mypy --strict` (one check: passed or
// failed). Creates the environments when missing. FAULTLINE_SKIP_CREWAI=1 leaves CrewAI out.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ENVS, ensurePythonEnv, pythonOf, sdkDir } from "./python-env.mjs";

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
  return { passed: tests - bad - skipped, failed: bad };
}

/** One pytest run; a missing environment or report counts as one failure. */
function pytest(env, args, label, childEnv) {
  const problem = ensurePythonEnv(env);
  if (problem) {
    console.error(`${label} not run: ${problem}`);
    return { passed: 0, failed: 1 };
  }
  const report = path.join(mkdtempSync(path.join(tmpdir(), "faultline-pytest-")), "junit.xml");
  spawnSync(pythonOf(env), ["-m", "pytest", "-q", "-p", "no:cacheprovider", `--junitxml=${report}`, ...args], { stdio: "inherit", cwd: sdkDir, env: childEnv });
  return existsSync(report) ? junitCounts(readFileSync(report, "utf8")) : { passed: 0, failed: 1 };
}

/** Runs pytest (both suites) and mypy; returns the summed counts. */
export function runPythonChecks(childEnv = process.env) {
  const counts = pytest(ENVS.main, [], "pytest", childEnv);
  if (!process.env.FAULTLINE_SKIP_CREWAI) {
    const crew = pytest(ENVS.crewai, ["tests_crewai"], "CrewAI tests", childEnv);
    counts.passed += crew.passed;
    counts.failed += crew.failed;
  }
  if (existsSync(pythonOf(ENVS.main))) {
    const mypy = spawnSync(pythonOf(ENVS.main), ["-m", "mypy", "--strict"], { stdio: "inherit", cwd: sdkDir, env: childEnv });
    if (mypy.status === 0) counts.passed++;
    else counts.failed++;
  }
  console.log(`Python SDK: ${counts.passed} passed, ${counts.failed} failed (pytest, CrewAI, mypy --strict)`);
  return counts;
}
