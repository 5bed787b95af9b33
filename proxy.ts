import { createHash, timingSafeEqual } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { config as serverConfig } from "./server/config";

const digest = (value: string) => createHash("sha256").update(value).digest();

function presentedSecret(req: NextRequest): string | null {
  const header = req.headers.get("authorization") ?? "";
  const basic = header.match(/^Basic\s+(\S+)$/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    return decoded.slice(decoded.indexOf(":") + 1);
  }
  return header.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;
}

/** When FAULTLINE_ADMIN_SECRET is set, the dashboard asks for it (HTTP Basic, any user name). */
export function proxy(req: NextRequest): NextResponse {
  const secret = serverConfig().adminSecret;
  if (!secret) return NextResponse.next();
  const presented = presentedSecret(req);
  if (presented !== null && timingSafeEqual(digest(presented), digest(secret))) return NextResponse.next();
  return NextResponse.json(
    { error: { code: "unauthorized", message: "this Faultline requires the admin secret" } },
    { status: 401, headers: { "WWW-Authenticate": 'Basic realm="faultline", charset="UTF-8"' } },
  );
}

// Ingest and health authenticate with project keys (or need none) and skip the proxy entirely, which
// also keeps it off the ingest hot path; everything else is the dashboard and its read APIs.
export const config = {
  matcher: ["/((?!_next/static|_next/image|icon.png|api/v1/ingest|v1/traces|api/health).*)"],
};
