// Builds @faultline/runtime from lib/runtime (and the parts of lib/contracts it imports):
//   dist/index.js          one ESM bundle (esbuild), zod left external
//   dist/types/**.d.ts     declarations (tsc), relative specifiers rewritten to explicit .js paths
// Uses only node builtins and the repository's own esbuild and tsc binaries.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const dist = path.join(here, "dist");
const bin = (name) => path.join(repo, "node_modules/.bin", name);

// The package version is the wire contract's SDK version: refuse to build a mismatch.
const manifest = JSON.parse(readFileSync(path.join(here, "package.json"), "utf8"));
const versionSource = readFileSync(path.join(repo, "lib/runtime/version.ts"), "utf8");
const runtimeVersion = /RUNTIME_VERSION = "([^"]+)"/.exec(versionSource)?.[1];
if (runtimeVersion !== manifest.version) {
  console.error(`package.json version ${manifest.version} differs from RUNTIME_VERSION ${runtimeVersion}`);
  process.exit(1);
}

// The README is the registry page, where a link into the repository's tree resolves nowhere: every
// link must be absolute, into the repository the manifest names.
const repositoryBase = manifest.repository?.url?.replace(/^git\+/, "").replace(/\.git$/, "");
const readmeLinks = [...readFileSync(path.join(here, "README.md"), "utf8").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
const strayLinks = readmeLinks.filter((href) => !repositoryBase || !href.startsWith(repositoryBase));
if (strayLinks.length > 0) {
  console.error(`README.md links outside ${repositoryBase ?? "the manifest's repository.url (missing)"}: ${strayLinks.join(", ")}`);
  process.exit(1);
}

rmSync(dist, { recursive: true, force: true });
execFileSync(
  bin("esbuild"),
  [
    path.join(repo, "lib/runtime/index.ts"),
    "--bundle",
    "--format=esm",
    "--platform=neutral",
    "--target=es2022",
    "--external:zod",
    "--sourcemap",
    "--log-level=warning",
    `--outfile=${path.join(dist, "index.js")}`,
  ],
  { stdio: "inherit" },
);
execFileSync(bin("tsc"), ["-p", path.join(here, "tsconfig.build.json")], { stdio: "inherit" });

// Declarations keep the source's extensionless specifiers, which node16/nodenext consumers
// cannot resolve; point each at the file that exists.
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : full.endsWith(".d.ts") ? [full] : [];
  });
}
const SPECIFIER = /(from\s+|import\()(["'])(\.{1,2}\/[^"']*)\2/g;
for (const file of walk(path.join(dist, "types"))) {
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(SPECIFIER, (match, lead, quote, spec) => {
    if (/\.(js|mjs|cjs|json)$/.test(spec)) return match;
    const base = path.resolve(path.dirname(file), spec);
    if (existsSync(`${base}.d.ts`)) return `${lead}${quote}${spec}.js${quote}`;
    if (existsSync(path.join(base, "index.d.ts"))) return `${lead}${quote}${spec}/index.js${quote}`;
    throw new Error(`${file}: cannot resolve ${spec}`);
  });
  if (fixed !== text) writeFileSync(file, fixed);
}
console.log(`built ${manifest.name}@${manifest.version} into ${path.relative(repo, dist)}`);
