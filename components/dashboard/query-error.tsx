export function QueryError({ error }: { error: Error }) {
  return (
    <div className="error-box" role="alert">
      Could not load this view: {error.message}
    </div>
  );
}
