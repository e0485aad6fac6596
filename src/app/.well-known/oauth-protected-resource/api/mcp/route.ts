export { GET, OPTIONS } from "../../route";

/** RFC 9728 path form for the resource /api/mcp (the same document as the root form). */
export const dynamic = "force-dynamic";
