import Link from "next/link";

/**
 * An in-app answer for a page that cannot show what its URL asks: a bad parameter (400) or
 * something that does not exist (404). It keeps the shell and says what to do next.
 */
export function PageProblem({ status, title, message, href = "/", linkText = "Go to the Overview" }: { status: 400 | 404 | 500; title: string; message: string; href?: string; linkText?: string }) {
  return (
    <section className="panel problem" data-testid="page-problem" data-status={status} aria-labelledby="problem-title">
      <p className="problem-status">{status === 400 ? "400 · bad request" : status === 404 ? "404 · not found" : "500 · error"}</p>
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
