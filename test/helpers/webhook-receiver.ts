import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

export interface ReceivedHook {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback that can go down and come back on the same port. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Stops listening: deliveries get a refused connection. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Waits until `n` requests have arrived (no fixed sleep: polls the list). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
  /** The status it answers from now on. */
  answer(status: number): void;
}

export async function startWebhookReceiver(status = 200): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  let answering = status;
  let port = 0;
  let server: Server | null = null;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
          res.writeHead(answering).end();
        });
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        const a = s.address();
        if (a && typeof a === "object") port = a.port;
        server = s;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = null;
      if (!s) return resolve();
      s.closeAllConnections();
      s.close(() => resolve());
    });
  await listen();
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    down: stop,
    up: listen,
    async waitFor(n, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} deliveries, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received.slice();
    },
    close: stop,
    answer(next) {
      answering = next;
    },
  };
}
