import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../helpers/server";

/** Starts `next start` with `env`, waits for it to exit, and returns its code and its [faultline] lines. */
async function startAndExit(env: Record<string, string>, host = "127.0.0.1") {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(process.cwd(), "node_modules/next/dist/bin/next"), "start", "-H", host, "-p", String(port)], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, lines: output.split("\n").filter((l) => l.includes("[faultline]")), output };
}

const dir = mkdtempSync(path.join(tmpdir(), "faultline-refusals-"));

describe("a start that cannot serve stops with one line and a non-zero exit", () => {
  it("refuses a database file that is not SQLite", async () => {
    const file = path.join(dir, "garbage.db");
    writeFileSync(file, Buffer.alloc(8192, "this is not a database "));
    const { code, lines, output } = await startAndExit({ FAULTLINE_DB_PATH: file });
    expect(code).toBe(1);
    expect(lines).toEqual([
      `[faultline] cannot start: the database file ${file} is damaged or is not a SQLite database (SQLITE_NOTADB); restore it from a backup, or move it aside to start with an empty one (FAULTLINE_DB_PATH chooses the file)`,
    ]);
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("refuses a path that cannot hold a database", async () => {
    const file = path.join(dir, "a-file");
    writeFileSync(file, "x");
    const db = path.join(file, "faultline.db");
    const { code, lines } = await startAndExit({ FAULTLINE_DB_PATH: db });
    expect(code).toBe(1);
    expect(lines).toEqual([
      `[faultline] cannot start: the database file ${db} cannot be opened or created (EEXIST); check that its folder exists and is writable, or set FAULTLINE_DB_PATH to a writable path`,
    ]);
  });

  it("refuses to listen beyond loopback without an admin secret (next start -H 0.0.0.0)", async () => {
    const { code, lines } = await startAndExit({ FAULTLINE_DB_PATH: path.join(dir, "bind.db"), FAULTLINE_ADMIN_SECRET: "" }, "0.0.0.0");
    expect(code).toBe(1);
    expect(lines).toEqual([
      "[faultline] cannot start: listening on 0.0.0.0 (beyond loopback) needs FAULTLINE_ADMIN_SECRET; set it, or bind to 127.0.0.1 (next start -H 127.0.0.1)",
    ]);
  });

  it("refuses a short admin secret without printing it", async () => {
    const { code, lines, output } = await startAndExit({ FAULTLINE_DB_PATH: path.join(dir, "secret.db"), FAULTLINE_ADMIN_SECRET: "hunter2" });
    expect(code).toBe(1);
    expect(lines).toEqual([
      "[faultline] cannot start: invalid FAULTLINE_ADMIN_SECRET: expected at least 16 characters (not only spaces); generate one with `openssl rand -base64 24`",
    ]);
    expect(output).not.toContain("hunter2");
  });
});
