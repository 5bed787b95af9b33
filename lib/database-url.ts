/** A database URL without its password, for logs and health answers. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== "") u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparseable URL)";
  }
}
