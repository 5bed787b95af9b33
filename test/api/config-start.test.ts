import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../helpers/server";

describe("start-up with an invalid setting", () => {
  it("stops with one line naming the variable and its range instead of serving with the setting ignored", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "faultline-config-"));
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(process.cwd(), "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)], {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", FAULTLINE_DB_PATH: path.join(dir, "db.sqlite"), FAULTLINE_MAX_INFLIGHT: "abc" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split("\n").filter((l) => l.includes("[faultline]"))).toEqual([
      '[faultline] cannot start: invalid FAULTLINE_MAX_INFLIGHT="abc": expected a whole number from 0 to 10000',
    ]);
  });
});
