import Link from "next/link";

const STATUS_LABELS = { 400: "400 · bad request", 401: "401 · sign in", 403: "403 · not allowed", 404: "404 · not found", 500: "500 · error", 503: "503 · unavailable" } as const;

/**
 * An in-app answer for a page that cannot show what its URL asks: a bad parameter (400), something
 * the visitor may not see (401, 403), something that does not exist (404) or storage that cannot
 * answer right now (503). It keeps the shell and
 * says what to do next.
 */
export function PageProblem({ status, title, message, href = "/", linkText = "Go to the Overview" }: { status: keyof typeof STATUS_LABELS; title: string; message: string; href?: string; linkText?: string }) {
  return (
    <section className="panel problem" data-testid="page-problem" data-status={status} aria-labelledby="problem-title">
      <p className="problem-status">{STATUS_LABELS[status]}</p>
      <h1 id="problem-title" tabIndex={-1}>
        {title}
      </h1>
      <p data-testid="problem-message">{message}</p>
      <p>
        <Link href={href}>{linkText}</Link>
      </p>
    </section>
  );
}
