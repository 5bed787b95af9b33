import { OUTCOME_STYLE } from "@/lib/charts/outcomes";
import { outcomeVar } from "@/lib/charts/palette";

const patternId = (outcome: string) => `fill-${outcome}`;

/** The fill of an outcome's bars: a pattern for the outcomes that must differ beyond colour. */
export function outcomeFill(outcome: string): string {
  const style = OUTCOME_STYLE[outcome];
  return style?.pattern ? `url(#${patternId(outcome)})` : (style?.color ?? outcomeVar("unknown"));
}

/** SVG pattern definitions: refused is hatched, declined is dotted. Rendered inside each chart. */
export function OutcomePatternDefs() {
  return (
    <defs>
      {Object.entries(OUTCOME_STYLE)
        .filter(([, s]) => s.pattern)
        .map(([outcome, s]) => (
          <pattern key={outcome} id={patternId(outcome)} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform={s.pattern === "hatch" ? "rotate(45)" : undefined}>
            <rect width="6" height="6" fill={s.color} opacity="0.35" />
            {s.pattern === "hatch" ? <line x1="0" y1="0" x2="0" y2="6" stroke={s.color} strokeWidth="3" /> : <circle cx="3" cy="3" r="1.6" fill={s.color} />}
          </pattern>
        ))}
    </defs>
  );
}

/** A legend swatch drawn the same way as the bars. */
export function OutcomeSwatch({ outcome }: { outcome: string }) {
  return (
    <svg width="12" height="12" aria-hidden="true" className="swatch" style={{ border: 0 }}>
      <OutcomePatternDefs />
      <rect width="12" height="12" rx="2" fill={outcomeFill(outcome)} />
    </svg>
  );
}
