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
    // Every response, whatever route answered it. Pages and read APIs pass through proxy.ts, which
    // replaces this Content-Security-Policy with a per-request nonce policy; the paths the proxy
    // skips (ingest, OTLP, health, static files) keep this one: they serve JSON and assets, never
    // HTML that runs scripts, so nothing may load or frame them.
    const apiCsp = ["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"].join("; ");
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: apiCsp },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
