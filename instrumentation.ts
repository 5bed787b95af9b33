// Next calls this once when the server starts; everything it does lives in server/boot.ts, loaded
// only in the Node.js runtime.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await (await import("./server/boot")).boot();
}
