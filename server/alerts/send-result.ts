/** How one attempt went: delivered, or why not and whether trying again could help. */
export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status (null for email and for no answer). */
  httpStatus: number | null;
  error: string | null;
  /** True when trying again cannot help (a 4xx other than 408/429, a refused address, a 5xx SMTP answer). */
  permanent: boolean;
}
