/** Prints the OpenAPI document (for linting and review): npm run -s openapi:print > openapi.json */
import { buildOpenApiDocument } from "@/server/doors/docs/openapi";
import { baseUrl } from "@/server/ground/platform/base-url";

process.stdout.write(`${JSON.stringify(buildOpenApiDocument(baseUrl()), null, 2)}\n`);
