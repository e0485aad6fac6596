import { createTheme } from "@mantine/core";

/**
 * One theme for the owner UI. Shade 7 of the primary colour keeps text and buttons above the
 * WCAG AA contrast ratio on white; focus rings show for keyboard users only.
 */
export const theme = createTheme({
  primaryColor: "indigo",
  primaryShade: { light: 7, dark: 4 },
  focusRing: "auto",
  defaultRadius: "md",
  fontFamily:
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'",
  headings: { fontWeight: "650" },
  components: {
    Button: { defaultProps: { fw: 600 } },
    Anchor: { defaultProps: { underline: "hover" } },
  },
});
