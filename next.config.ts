import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files; bundling them bloats .next/static and slows builds.
  serverExternalPackages: ["@electric-sql/pglite", "web-tree-sitter", "tree-sitter-bash", "tree-sitter-python", "mvdan-sh", "postgres"],
  poweredByHeader: false,
  typedRoutes: false,
  // `npm start` builds on every start, so the build only compiles: the type check is
  // `npm run typecheck` (tsc over the whole project, tests included), which `npm run check` and
  // .ci/run run before anything else. Type-checking again here cost 11–28 s per start.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // forbidden(): a role without the permission gets a real 403 page.
    authInterrupts: true,
    // Turbopack's build cache (on unless said otherwise) made every build slower here: a first
    // build 179 s against 89 s without it, a warm one 124 s (docs/benchmarks.md § Start-up build).
    turbopackFileSystemCacheForBuild: false,
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
        ],
      },
      {
        // JSON answers and raw files: nothing may run or be framed (pages get a nonce CSP from proxy.ts).
        source: "/api/v1/:path*",
        headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; sandbox" }],
      },
    ];
  },
};

export default nextConfig;
