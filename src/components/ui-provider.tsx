"use client";

import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import type { ReactNode } from "react";
import { cssVariablesResolver, theme } from "./theme";

/** Mantine with the product's theme (a client component: the theme's CSS-variable resolver is a function). */
export function UiProvider({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      {children}
    </MantineProvider>
  );
}
