import type { SsoErrorCode } from "@/lib/auth/sso-errors";

/** A sign-in that ends on the sign-in page with `code`; `detail` goes to the audit log and the server log only. */
export class SsoFailure extends Error {
  constructor(
    readonly code: SsoErrorCode,
    readonly detail: string,
    readonly who: { email: string | null; userId: string | null } = { email: null, userId: null },
  ) {
    super(detail);
  }
}
