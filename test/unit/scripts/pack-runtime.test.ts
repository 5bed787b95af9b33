import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ESM script without declarations
import { newestSourceMtime } from "../../../scripts/build-sources.mjs";

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), "faultline-pack-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("npm run pack:runtime", () => {
  it("packs a README whose links are all absolute, and leaves the dashboard's build fresh", async () => {
    const root = process.cwd();
    const before = (newestSourceMtime as (root: string) => number)(root);
    await run("npm", ["pack", "./lib/runtime/npm", "--pack-destination", scratch, "--silent"], { cwd: root, timeout: 180_000 });
    const tarball = readdirSync(scratch).find((f) => f.endsWith(".tgz"))!;
    const { stdout: readme } = await run("tar", ["-xzOf", path.join(scratch, tarball), "package/README.md"]);
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    expect(links).toEqual([
      "https://github.com/faultline-dev/faultline",
      "https://github.com/faultline-dev/faultline/blob/main/docs/gate.md",
      "https://github.com/faultline-dev/faultline/blob/main/docs/runtime.md",
    ]);
    // `npm start` rebuilds when a source is newer than the last build: packing touched none.
    expect((newestSourceMtime as (root: string) => number)(root)).toBe(before);
  }, 240_000);
});
