import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files; bundling them bloats .next/static and slows builds.
  serverExternalPackages: ["@electric-sql/pglite", "web-tree-sitter", "tree-sitter-bash", "tree-sitter-python", "mvdan-sh", "postgres"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
