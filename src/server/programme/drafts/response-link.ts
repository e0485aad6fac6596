import { baseUrl } from "@/server/ground/platform/base-url";

/**
 * The response link printed on a piece: {base_url}/r/{code}; the QR code adds ?via=qr. A module
 * of its own, so that what only names a piece's link (the lifecycle, the responses list) does not
 * load the renderer with it.
 */
export const responseLink = (code: string) => `${baseUrl()}/r/${code}`;
