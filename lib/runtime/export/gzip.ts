const encoder = new TextEncoder();

/** True when the platform has `CompressionStream` (Node 18+, current browsers, Deno, Bun). */
export function canGzip(): boolean {
  return typeof globalThis.CompressionStream === "function";
}

/**
 * Gzips `text` (as UTF-8) with the platform `CompressionStream`, so the library needs no zlib
 * binding and runs the same outside Node. Rejects if the stream fails.
 */
export async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new CompressionStream("gzip");
  const writer = stream.writable.getWriter();
  // Not awaited: the readable side must be drained concurrently or backpressure stalls the write.
  writer.write(encoder.encode(text)).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
