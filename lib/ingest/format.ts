import type { z } from "zod";
import { formatIssues, type Rejection } from "@/lib/contracts";
import type { RowBatch } from "./rows";

/** What a format makes of one request: the rows to store and, per record index, what was refused. */
export interface Normalized {
  rows: RowBatch;
  /** Records (or spans) refused one by one; the rest of the request is still stored. */
  rejections: Rejection[];
  /** Records accepted (stored or already stored); for OTLP, the tool and agent spans kept. */
  accepted: number;
}

/** How the request's answer is shaped: Faultline's JSON ingest result, or an OTLP export response. */
export type AnswerStyle = "ingest-result" | "otlp";

/**
 * One input format: how to read its body into an envelope, and a pure mapping from that envelope onto
 * rows. The route factory (`server/ingest/ingest-route.ts`) adds auth, limits, backpressure, storage
 * and the answer, the same for every format; adding a format is one module and one route line.
 */
export interface IngestFormat<E> {
  /** Stable name, used in logs and as the `source` family of its rows. */
  name: string;
  /** The envelope's schema (for OTLP, its JSON form; protobuf is decoded onto the same shape). */
  envelope: z.ZodType;
  answer: AnswerStyle;
  /** Accepted `Content-Type`s (without parameters). */
  contentTypes: readonly string[];
  /**
   * Reads a (decompressed, size-limited) body; throws `EnvelopeError` when it is unreadable. `query`
   * is the request's query string, for formats whose bodies leave batch fields out (the kit's lists).
   */
  parse(body: Uint8Array, contentType: string, query?: URLSearchParams): E;
  normalize(envelope: E, now?: number): Normalized;
}

/** An unreadable request body: the whole request is answered 400 and nothing is stored. */
export class EnvelopeError extends Error {
  constructor(
    readonly code: "invalid_json" | "bad_request",
    message: string,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

/**
 * Parses a UTF-8 JSON body. A syntax error is reported by position, never by content: the engine's
 * own message quotes the body ("Unexpected token 'x', "…" is not valid JSON"), which would echo a
 * client's bytes (and any secret in them) into answers and logs.
 */
export function parseJsonBody(body: Uint8Array): unknown {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EnvelopeError("invalid_json", jsonSyntaxMessage(text, error instanceof Error ? error.message : ""));
  }
}

// V8's positional messages name the expectation in fixed words ("Expected ',' or ']' after array
// element"); only those words are kept, and only when they contain no quoted body text.
const POSITIONED = /^([A-Za-z ,:'[\]{}-]{1,80}?) (?:in|after) JSON at position (\d{1,10})/;

function jsonSyntaxMessage(text: string, engineMessage: string): string {
  const positioned = POSITIONED.exec(engineMessage);
  if (positioned && !positioned[1]!.includes('"')) {
    const reason = positioned[1]!.charAt(0).toLowerCase() + positioned[1]!.slice(1);
    return `body is not valid JSON: ${reason} at ${lineColumn(text, Number(positioned[2]))}`;
  }
  if (engineMessage.startsWith("Unexpected end of JSON input")) {
    return text.trim() === "" ? "body is empty; expected a JSON object" : `body is not valid JSON: it ends early, at ${lineColumn(text, text.length)}`;
  }
  if (engineMessage.startsWith("Unexpected token")) return "body is not valid JSON: unexpected character";
  return "body is not valid JSON";
}

function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  return `line ${line}, column ${position - before.lastIndexOf("\n")} (position ${position})`;
}

/** Checks a parsed body against a format's envelope schema, listing every issue. */
export function checkEnvelope<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new EnvelopeError("bad_request", `invalid batch: ${formatIssues(parsed.error.issues)}`, issues);
  }
  return parsed.data;
}

/** The `parse` of a JSON format whose envelope is a zod schema. */
export const jsonEnvelope =
  <S extends z.ZodType>(schema: S) =>
  (body: Uint8Array): z.output<S> =>
    checkEnvelope(schema, parseJsonBody(body));

/**
 * Records whose every row was already stored are duplicates: a kit event list maps one record onto
 * several rows (a span and a final error), and the record is a duplicate only when all of them were.
 */
export function countDuplicateRecords(rows: RowBatch, duplicateIndexes: readonly number[]): number {
  const rowsPerIndex = new Map<number, number>();
  for (const { index } of [...rows.spans, ...rows.toolErrors, ...rows.runs]) rowsPerIndex.set(index, (rowsPerIndex.get(index) ?? 0) + 1);
  const duplicatesPerIndex = new Map<number, number>();
  for (const index of duplicateIndexes) duplicatesPerIndex.set(index, (duplicatesPerIndex.get(index) ?? 0) + 1);
  let records = 0;
  for (const [index, n] of duplicatesPerIndex) if (index >= 0 && n === rowsPerIndex.get(index)) records++;
  return records;
}
