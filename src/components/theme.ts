import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  parseThemeColor,
  type VariantColorsResolver,
} from "@mantine/core";

/**
 * One theme for the owner UI. Shade 7 of the primary colour keeps text and buttons above the
 * WCAG AA contrast ratio on white; focus rings show for keyboard users only.
 */
/**
 * Light badges, alerts and buttons (a tint of the colour behind text of the same colour): Mantine's
 * text shade is 2:1 to 4:1 on its tint for yellow, orange, lime, green and teal. The text here is
 * the darkest shade, darkened further, which is above 4.5:1 on every tint.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== "light") return colors;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.color === "dark" || parsed.color === "gray") return colors;
  return {
    ...colors,
    color: darken(input.theme.colors[parsed.color][9], 0.3),
    hoverColor: darken(input.theme.colors[parsed.color][9], 0.3),
  };
};

export const theme = createTheme({
  variantColorResolver,
  primaryColor: "indigo",
  primaryShade: { light: 7, dark: 4 },
  focusRing: "auto",
  defaultRadius: "md",
  fontFamily:
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'",
  headings: { fontWeight: "650" },
  components: {
    Button: { defaultProps: { fw: 600 } },
    // The close button is named, and a message under a title is dimmed text, not Mantine's 3.3:1 grey.
    Notification: {
      defaultProps: { closeButtonProps: { "aria-label": "Dismiss this message" } },
      styles: { description: { color: "var(--mantine-color-dimmed)" } },
    },
    // Links in running text are underlined, not told apart by colour alone (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: "always" } },
    // A password's show/hide toggle is reached with Tab and named (Mantine leaves it out of the tab
    // order); aria-pressed says whether the password shows.
    PasswordInput: {
      defaultProps: { visibilityToggleFocusable: true, visibilityToggleButtonProps: { "aria-label": "Show password" } },
    },
  },
});

/**
 * Secondary text ("dimmed": help text, descriptions, stat labels, placeholders) at least 4.5:1 on
 * white and on the page's grey background (WCAG AA): Mantine's default grey 6 is about 3.3:1. So is
 * a field's error (what is wrong with it, under it): Mantine's red 6 is 3.3:1, red 9 is 5.5:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    "--mantine-color-dimmed": "#5c636a",
    "--mantine-color-placeholder": "#6b7178",
    "--mantine-color-error": "var(--mantine-color-red-9)",
  },
  dark: {},
});
