// The Python SDK's virtual environments: sdk/python/.venv (the package with its pinned test extras)
// and sdk/python/.venv-crewai (CrewAI pins openai 2.x and mcp 1.x, so its tests run apart). Each is
// created when missing and reinstalled when sdk/python/pyproject.toml changed (a stamp holds its
// hash). Used by `npm test` and CI; `node scripts/python-env.mjs` builds both.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
export const sdkDir = path.join(root, "sdk/python");

/** The environments: where each lives and which extra it installs. */
export const ENVS = {
  main: { dir: process.env.FAULTLINE_PY_VENV ?? path.join(sdkDir, ".venv"), extra: "test" },
  crewai: { dir: process.env.FAULTLINE_PY_VENV_CREWAI ?? path.join(sdkDir, ".venv-crewai"), extra: "test-crewai" },
};

/** The interpreter of an environment. */
export const pythonOf = (env) => path.join(env.dir, "bin/python");

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
 * Makes sure `env` exists with the package installed (editable) and its extra. Returns an error
 * message, or undefined when the environment is ready.
 */
export function ensurePythonEnv(env = ENVS.main) {
  const stamp = createHash("sha256").update(readFileSync(path.join(sdkDir, "pyproject.toml"))).digest("hex");
  const stampFile = path.join(env.dir, ".faultline-stamp");
  const python = pythonOf(env);
  if (existsSync(python) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return undefined;
  const base = findPython();
  if (!base) return "no Python 3.10+ found on PATH (set FAULTLINE_PYTHON)";
  const started = Date.now();
  console.log(`creating ${path.relative(root, env.dir)} (extra ${env.extra}) with ${base}`);
  if (!existsSync(python) && !run(base, ["-m", "venv", env.dir])) return "python -m venv failed";
  if (!run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", `.[${env.extra}]`])) return "pip install failed";
  writeFileSync(stampFile, stamp);
  console.log(`${path.relative(root, env.dir)} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = Object.values(ENVS).map((env) => ensurePythonEnv(env)).filter(Boolean);
  for (const p of problems) console.error(p);
  process.exit(problems.length ? 1 : 0);
}
