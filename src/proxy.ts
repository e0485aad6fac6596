import { type NextRequest, NextResponse } from "next/server";

/** The request header that carries the page's own path (and query) to server components. */
export const REQUEST_PATH_HEADER = "x-request-path";

/**
 * Tells the workspace layout which page was asked for, so a signed-out visit to a deep link (a
 * confirmation card, say) signs in and comes back to that page rather than the workspace's start.
 * Always overwritten here, so a client cannot choose it.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(REQUEST_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/w/:path*"] };
