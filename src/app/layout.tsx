import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "@mantine/charts/styles.css";
import "./globals.css";
import { ColorSchemeScript, mantineHtmlProps } from "@mantine/core";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { UiProvider } from "@/components/ui-provider";
import { TRPCReactProvider } from "@/trpc/react";

export const metadata: Metadata = {
  title: { default: "Direct Mail Programme", template: "%s · Direct Mail Programme" },
  description:
    "Postcards, letters, handwritten notes and gifts for B2B revenue teams, measured against account-level holdouts.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <ColorSchemeScript defaultColorScheme="light" />
      </head>
      <body>
        <UiProvider>
          <TRPCReactProvider>{children}</TRPCReactProvider>
        </UiProvider>
      </body>
    </html>
  );
}
