import { execFile } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("npm run demo against a wrong port", () => {
  it("says once that it could not connect, with the reason, and exits 1 before simulating", async () => {
    const port = await closedPort();
    const tsx = path.resolve("node_modules/.bin/tsx");
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(tsx, ["scripts/demo.ts", "--key", "fl_not_used", "--url", `http://127.0.0.1:${port}`, "--runs", "5"], { timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
      );
    });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `demo: could not connect to Faultline at http://127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port}). Start it with \`npm start\`, or pass --url <url> (or set FAULTLINE_URL).\n`,
    });
  }, 90_000);
});
