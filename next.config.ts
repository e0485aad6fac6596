import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./src/server/ground/http/security-headers";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Packages with native code, WebAssembly or files read at run time stay outside the bundle.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/client",
    "@prisma/driver-adapter-utils",
    "@prisma/debug",
    "@prisma/schema-engine-wasm",
    "pg",
    "@node-rs/argon2",
    "trpc-to-openapi",
    // The renderer: PDFKit reads its data files at run time, resvg is a native addon, fontkit is shared with PDFKit.
    "pdfkit",
    "fontkit",
    "@resvg/resvg-js",
    "linebreak",
    "png-js",
    // The CRM clients (CommonJS with optional browser and CLI parts).
    "@hubspot/api-client",
    "jsforce",
    // Email over SMTP (loaded by the email worker on its first message).
    "nodemailer",
  ],
  experimental: {
    optimizePackageImports: ["@mantine/core", "@mantine/hooks", "@mantine/charts", "@tabler/icons-react"],
  },
  async headers() {
    const headers = Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value }));
    // A hosted response page (/r/{code}) and its logo send their own, stricter set (a CSP with the
    // page's stylesheet hash, noindex, no referrer: src/app/r/[code]/page-shell.ts); a header set here
    // would replace it. Every other path, /r/'s others included, gets these.
    return [
      { source: "/", headers },
      { source: "/:path((?!r/[^/]+(?:/logo)?$).*)", headers },
    ];
  },
};

export default nextConfig;
