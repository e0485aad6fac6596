import type { AnyRouter } from "@trpc/server";
import type { TApiKeyScope } from "@/server/ground/access/principals";
import type { AppErrorCode } from "@/server/ground/errors";
import { unstorableReason } from "@/server/ground/platform/stored-text";
import { unknownFieldMessage } from "@/server/ground/http/fields";
import type { AppMeta } from "@/server/ground/trpc";

/** Longest path parameter (an id) that can name anything; a longer one is the same 404 as an unknown one. */
const MAX_PATH_PARAM_LENGTH = 64;

/** One published REST operation, read from a procedure's OpenAPI meta (never written twice). */
export interface RestOperation {
  procedurePath: string;
  operationId: string;
  method: string;
  /** e.g. /v1/campaigns/{campaignId}/events */
  path: string;
  paramNames: string[];
  pattern: RegExp;
  requiredScope?: TApiKeyScope;
  successStatus: number;
  /** Problems particular to it (see AppMeta). */
  problems: AppErrorCode[];
  summary?: string;
  /** The members its input takes besides the path parameters. */
  bodyFields: string[];
}

export function listOperations(router: AnyRouter): RestOperation[] {
  const procedures = router._def.procedures as Record<
    string,
    { _def: { meta?: AppMeta; inputs: { shape?: Record<string, unknown> }[] } }
  >;
  return Object.entries(procedures).flatMap(([procedurePath, procedure]) => {
    const meta = procedure._def.meta;
    if (!meta?.openapi) return [];
    const paramNames = [...meta.openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const pattern = new RegExp(`^${meta.openapi.path.replace(/\{\w+\}/g, "([^/]+)")}$`);
    return [
      {
        procedurePath,
        operationId: meta.openapi.operationId ?? procedurePath,
        method: meta.openapi.method,
        path: meta.openapi.path,
        paramNames,
        pattern,
        requiredScope: meta.requiredScope,
        successStatus: meta.successStatus ?? 200,
        problems: meta.problems ?? [],
        summary: meta.openapi.summary,
        bodyFields: Object.keys(procedure._def.inputs[0]?.shape ?? {}).filter((k) => !paramNames.includes(k)),
      },
    ];
  });
}

export type OperationMatch =
  | { kind: "match"; operation: RestOperation; params: Record<string, string> }
  | { kind: "method_not_allowed"; allow: string[] }
  | { kind: "none" };

export function matchOperation(operations: RestOperation[], method: string, path: string): OperationMatch {
  const onPath = operations.filter((op) => op.pattern.test(path));
  if (onPath.length === 0) return { kind: "none" };
  const operation = onPath.find((op) => op.method === method);
  if (!operation) return { kind: "method_not_allowed", allow: [...new Set(onPath.map((op) => op.method))] };
  // The pattern matched this path in the filter above.
  const values = (path.match(operation.pattern) ?? []).slice(1);
  let params: Record<string, string>;
  try {
    params = Object.fromEntries(operation.paramNames.map((name, i) => [name, decodeURIComponent(values[i])]));
  } catch {
    return { kind: "none" };
  }
  // An id no record can have (too long, NUL, broken Unicode) names nothing: the same 404 as an unknown one.
  if (Object.values(params).some((v) => v.length > MAX_PATH_PARAM_LENGTH || unstorableReason(v)))
    return { kind: "none" };
  return { kind: "match", operation, params };
}

/** The path the procedures are published under: the URL path without /api, with its query unless `withQuery` is false. */
export function restPath(url: URL, withQuery = true): string {
  const path = url.pathname.replace(/^\/api(?=\/)/, "");
  return withQuery ? path + url.search : path;
}

/**
 * A query parameter that the published procedures cannot receive as a member of their input
 * (`__proto__` is dropped by plain-object assignment), as a field error; null when there is none.
 */
export function unreadableQueryParameter(url: URL, knownFields: string[]): { name: string; detail: string } | null {
  if (!url.searchParams.has("__proto__")) return null;
  return { name: "__proto__", detail: unknownFieldMessage("__proto__", knownFields) };
}
