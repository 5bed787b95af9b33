/** One labelled number or text input, with its hint and its problem announced next to it (alert rule and SLO forms). */
export function LabelledInput(props: { id: string; label: string; hint?: string; value: string; onChange(v: string): void; issue?: string | undefined; type?: "number" | "text"; step?: string; min?: string; max?: string; required?: boolean }) {
  const described = [props.hint ? `${props.id}-hint` : null, props.issue ? `${props.id}-issue` : null].filter(Boolean).join(" ");
  return (
    <label htmlFor={props.id}>
      {props.label}
      <input
        id={props.id}
        type={props.type ?? "number"}
        inputMode={props.type === "text" ? undefined : "decimal"}
        step={props.step ?? "any"}
        min={props.min}
        max={props.max}
        required={props.required}
        value={props.value}
        aria-invalid={props.issue ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint ? <small id={`${props.id}-hint`}>{props.hint}</small> : null}
      {props.issue ? (
        <small id={`${props.id}-issue`} role="alert">
          {props.issue}
        </small>
      ) : null}
    </label>
  );
}
