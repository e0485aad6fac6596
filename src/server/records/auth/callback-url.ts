/**
 * Where a person may be sent after signing in: only a path of this site. Browsers read `\` as `/`,
 * so `/\evil.example/phish` (the reproduction: `callbackUrl=/%5Cevil.example/phish`) is another
 * site, as are `//evil.example`, `/%2F%2Fevil.example` once decoded, and any scheme. Used by the
 * sign-in page (already signed in), its form (after signing in) and next-auth's redirect callback;
 * imports nothing, so the browser's bundle can use it too.
 */
export const AFTER_SIGN_IN_DEFAULT = "/w";

/** The path itself when it is a same-site path, else null. */
export function sameSitePath(url: string | null | undefined): string | null {
  if (typeof url !== "string" || url.length === 0 || url.length > 2048) return null;
  // Control characters (tab and newline are dropped by URL parsers, which can turn "/\t/evil" into "//evil") and backslashes.
  if (/[\u0000-\u001f\u007f\\]/.test(url)) return null;
  if (!url.startsWith("/") || url.startsWith("//")) return null;
  // The same checks on the decoded form: an encoded slash, backslash or control character is refused too.
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    return null;
  }
  if (/[\u0000-\u001f\u007f\\]/.test(decoded) || decoded.startsWith("//")) return null;
  // Whatever a URL parser makes of it must stay on this site.
  const base = "http://same-site.invalid";
  try {
    if (new URL(url, base).origin !== base) return null;
  } catch {
    return null;
  }
  return url;
}

/** The path to go to after signing in: the one asked for when it is a same-site path, else the workspaces. */
export const safeCallback = (url: string | null | undefined): string => sameSitePath(url) ?? AFTER_SIGN_IN_DEFAULT;
