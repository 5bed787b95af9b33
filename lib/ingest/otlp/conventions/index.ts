import type { OtlpSpan } from "../decode";
import { adkConvention } from "./adk";
import type { ToolConvention } from "./convention";
import { faultlineConvention } from "./faultline";
import { genAiConvention } from "./gen-ai";
import { langfuseConvention } from "./langfuse";
import { openInferenceConvention } from "./openinference";
import { traceloopConvention } from "./traceloop";
import { vercelAiConvention } from "./vercel-ai";

export type { ConventionName, ConventionRead, HintField, ToolConvention } from "./convention";

/**
 * Every tool-span convention in priority order: the first that recognises a span names its
 * convention, and for each field the first convention that carries it wins (the most specific).
 */
export const CONVENTIONS: readonly ToolConvention[] = [
  faultlineConvention,
  adkConvention,
  genAiConvention,
  openInferenceConvention,
  traceloopConvention,
  vercelAiConvention,
  langfuseConvention,
];

/** The convention that marks the span as a tool call, or null for any other span. */
export const toolConvention = (span: OtlpSpan): ToolConvention | null => CONVENTIONS.find((c) => c.recognises(span)) ?? null;

/** A convention by name (for fix hints of stored emitters). */
export const conventionNamed = (name: string): ToolConvention | null => CONVENTIONS.find((c) => c.name === name) ?? null;
