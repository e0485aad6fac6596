import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "@mantine/charts/styles.css";
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { theme } from "@/components/theme";
import { TRPCReactProvider } from "@/trpc/react";

export const metadata: Metadata = {
  title: { default: "Direct Mail Programme", template: "%s · Direct Mail Programme" },
  description: "Postcards, letters, handwritten notes and gifts for B2B revenue teams, measured against account-level holdouts.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <ColorSchemeScript defaultColorScheme="light" />
      </head>
      <body>
        <MantineProvider theme={theme} defaultColorScheme="light">
          <Notifications position="top-right" />
          <TRPCReactProvider>{children}</TRPCReactProvider>
        </MantineProvider>
      </body>
    </html>
  );
}
