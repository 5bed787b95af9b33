/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let tests and parallel work build without trampling each other.
  distDir: process.env.FAULTLINE_DIST_DIR ?? ".next",
  // `npm run lint` runs tsc over the whole tree; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  // The native SQLite addon must be required at run time, not bundled.
  serverExternalPackages: ["better-sqlite3"],
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    // Client-sent text is rendered as text; a strict CSP is the second line of defence.
    const csp = [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join("; ");
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
