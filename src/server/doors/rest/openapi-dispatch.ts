import "server-only";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { restRouter } from "@/server/doors/rest/router";
import type { TrpcContext } from "@/server/ground/trpc";

/** What one call of a published procedure gave: its status and JSON body, or the error it threw. */
export interface DispatchResult {
  status: number;
  body: string;
  failure?: unknown;
}

/** Per-call state the shared handler reads back from the request it is given. */
interface Call {
  context: TrpcContext;
  failure?: unknown;
}

const CALL = Symbol("rest call");
type CallRequest = Request & { [CALL]: Call };
const callOf = (req: unknown) => (req as CallRequest)[CALL];

/**
 * trpc-to-openapi's handler, built once for the process: it maps method and path to the
 * procedure (path parameters included), coerces query strings, runs the procedure and serialises
 * its output. Its fetch adapter would rebuild all of that, and a copy of the request, on every
 * call; this one is given a view of the request that the REST door has already checked.
 */
const handler = createOpenApiNodeHttpHandler({
  router: restRouter,
  createContext: ({ req }) => callOf(req).context,
  onError: ({ error, req }) => {
    callOf(req).failure = error;
  },
});

/**
 * Calls the procedure published at `path` (the URL path without /api, plus any query string),
 * with `body` as the already parsed JSON body of a POST.
 */
export function dispatchOperation(
  req: Request,
  path: string,
  context: TrpcContext,
  body?: Record<string, unknown>,
): Promise<DispatchResult> {
  const call: Call = { context };
  // The door has checked the media type (any case, any parameters): the handler compares it as written.
  const headers = new Headers(req.headers);
  if (body !== undefined) headers.set("content-type", "application/json");
  const view = new Proxy(req, {
    get(target, property) {
      if (property === CALL) return call;
      if (property === "url") return path;
      if (property === "body") return body;
      if (property === "headers") return headers;
      // Query parameters as an object without a prototype: a parameter named constructor or __proto__ is just a name.
      if (property === "query") return queryOf(path);
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as CallRequest;
  return new Promise((resolve, reject) => {
    let status = 200;
    const res = {
      get statusCode() {
        return status;
      },
      set statusCode(code: number) {
        status = code;
      },
      setHeader() {},
      end(text: string) {
        resolve({ status, body: text, failure: call.failure });
      },
    };
    handler(view as never, res as never).catch(reject);
  });
}

/** The query string of `path` as the handler reads it: name -> values, on an object without a prototype. */
function queryOf(path: string): Record<string, string[]> {
  const query = Object.create(null) as Record<string, string[]>;
  for (const [key, value] of new URL(path, "http://localhost").searchParams) (query[key] ??= []).push(value);
  return query;
}
