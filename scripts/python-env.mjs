// The Python SDK's virtual environment (sdk/python/.venv): created when missing, reinstalled when
// sdk/python/pyproject.toml changed (a stamp in the venv holds its hash). Used by `npm test` and CI.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
export const sdkDir = path.join(root, "sdk/python");
export const venvDir = process.env.FAULTLINE_PY_VENV ?? path.join(sdkDir, ".venv");
export const venvPython = path.join(venvDir, "bin/python");

/** The first interpreter on PATH that is Python 3.10 or newer, or undefined. */
function findPython() {
  for (const name of [process.env.FAULTLINE_PYTHON, "python3", "python3.13", "python3.12", "python3.11", "python3.10", "python"].filter(Boolean)) {
    const probe = spawnSync(name, ["-c", "import sys; print(sys.version_info >= (3, 10))"], { encoding: "utf8" });
    if (probe.status === 0 && probe.stdout.trim() === "True") return name;
  }
  return undefined;
}

const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit", cwd: sdkDir }).status === 0;

/**
 * Makes sure the venv exists with the package installed (editable) and its test extras. Returns
 * an error message, or undefined when the venv is ready.
 */
export function ensurePythonEnv() {
  const stamp = createHash("sha256").update(readFileSync(path.join(sdkDir, "pyproject.toml"))).digest("hex");
  const stampFile = path.join(venvDir, ".faultline-stamp");
  if (existsSync(venvPython) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return undefined;
  const python = findPython();
  if (!python) return "no Python 3.10+ found on PATH (set FAULTLINE_PYTHON)";
  const started = Date.now();
  console.log(`creating the Python SDK's virtual environment in ${path.relative(root, venvDir)} with ${python}`);
  if (!existsSync(venvPython) && !run(python, ["-m", "venv", venvDir])) return "python -m venv failed";
  if (!run(venvPython, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", ".[test]"])) return "pip install failed";
  writeFileSync(stampFile, stamp);
  console.log(`Python environment ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problem = ensurePythonEnv();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
