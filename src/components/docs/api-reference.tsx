"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/** The API reference for people, rendered by Scalar from the published /openapi.json. */
export function ApiReference() {
  return (
    <ApiReferenceReact
      configuration={{
        url: "/openapi.json",
        withDefaultFonts: false,
        defaultOpenAllTags: true,
        // No third-party services from our docs: no hosted AI chat, MCP generator, toolbar or telemetry.
        agent: { disabled: true },
        mcp: { disabled: true },
        telemetry: false,
        showDeveloperTools: "never",
        hideDarkModeToggle: true,
        metaData: { title: "API reference" },
      }}
    />
  );
}
