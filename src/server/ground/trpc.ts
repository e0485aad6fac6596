import "server-only";
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import { z, ZodError } from "zod";
import type { PrismaClient } from "@/generated/prisma/client";
import type { TApiKeyScope } from "@/server/ground/access/principals";
import type { AuthenticatedKey } from "@/server/ground/access/principals";
import type { Actor } from "./audit/service";
import type { SessionUser } from "@/server/ground/access/principals";
import { AppError, type AppErrorCode, isAppError, problemTable } from "./errors";
import { appErrorFromDatabase } from "./platform/database-errors";
import { findUnstorableText } from "./platform/stored-text";
import { requireMembership } from "@/server/ground/access/membership";
import { PROCEDURE_ACTIONS } from "@/server/ground/access/procedure-actions";
import { requireRole } from "@/server/ground/access/roles";

/** What every procedure receives. Credentials are read lazily: a public call reads none. */
export interface TrpcContext {
  db: PrismaClient;
  headers: Headers;
  getUser: () => Promise<SessionUser | null>;
  /** The workspace API key a REST request authenticated with (set by the REST door). */
  apiKey?: AuthenticatedKey | null;
  /** Headers a REST procedure adds to its success response, e.g. Location. */
  responseHeaders?: Record<string, string>;
}

/** Procedure meta: the OpenAPI mapping, and for REST the scope and success status. */
export type AppMeta = OpenApiMeta<{
  requiredScope?: TApiKeyScope;
  successStatus?: number;
  /** Problems particular to this operation, documented in openapi.json beside the common ones. */
  problems?: AppErrorCode[];
}>;

const statusToTrpcCode: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

const t = initTRPC
  .context<TrpcContext>()
  .meta<AppMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      const appError = isAppError(cause) ? cause : null;
      const fieldErrors =
        cause instanceof ZodError
          ? cause.issues.map((i) => ({ pointer: `/${i.path.join("/")}`, detail: i.message }))
          : appError?.errors;
      return {
        ...shape,
        // Unknown failures never show their message; input the schema refuses shows its sentences
        // (tRPC's own message for it is the zod issues as JSON, which a form would show as is).
        message: appError
          ? appError.message
          : cause instanceof ZodError
            ? [...new Set(cause.issues.map((i) => i.message))].join(" ")
            : error.code === "INTERNAL_SERVER_ERROR"
              ? problemTable.internal.title
              : shape.message,
        data: { ...shape.data, stack: undefined, problem: appError?.code ?? null, fieldErrors: fieldErrors ?? null },
      };
    },
  });

/**
 * AppError -> TRPCError with the matching HTTP status, keeping the AppError as its cause. A
 * database failure the request caused (a value PostgreSQL refuses, a concurrent change) becomes
 * its AppError too (see platform/database-errors.ts); the original is logged, never shown.
 */
const appErrors = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (result.ok) return result;
  let appError = isAppError(result.error.cause) ? result.error.cause : null;
  if (!appError) {
    appError = appErrorFromDatabase(result.error.cause);
    if (appError) console.warn(`[trpc] ${path}: ${appError.code} from the database`, result.error.cause);
  }
  if (appError)
    throw new TRPCError({
      code: statusToTrpcCode[appError.status] ?? "INTERNAL_SERVER_ERROR",
      message: appError.message,
      cause: appError,
    });
  return result;
});

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;

/**
 * Input no service can store (a NUL character or a lone surrogate anywhere, member names included)
 * is refused before the procedure runs, whatever its schema: a 422 naming the field, nothing written.
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const found = findUnstorableText(await getRawInput());
  if (found)
    throw new AppError("validation_failed", `${found.detail} Nothing was written.`, {
      errors: [{ pointer: found.pointer, detail: found.detail }],
    });
  return next();
});

/** Anyone: calculators, sign-up. */
export const publicProcedure = t.procedure.use(appErrors).use(storableInput);

/** A signed-in person, in no particular workspace (their list of workspaces, a new workspace). */
export const signedInProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user = await ctx.getUser();
  if (!user) throw new AppError("unauthenticated", "Sign in to continue.");
  const actor: Actor = { kind: "user", id: user.id, label: user.email };
  return next({ ctx: { user, actor } });
});

/**
 * A person of the workspace named by `input.workspaceId`, signed in through the browser, whose role
 * may do what the procedure does (PROCEDURE_ACTIONS, by path; a path missing there is refused). A
 * workspace the person does not belong to is not found. Every workspace page and action uses this.
 */
export const ownerProcedure = signedInProcedure
  .input(z.object({ workspaceId: z.string().min(1).max(64) }))
  .use(async ({ ctx, input, next, path }) => {
    const membership = await requireMembership(ctx.db, { userId: ctx.user.id, workspaceId: input.workspaceId });
    const action = PROCEDURE_ACTIONS[path];
    if (!action) throw new AppError("forbidden", "This action is not open to any role.");
    requireRole(membership, action);
    return next({
      ctx: {
        workspace: membership.workspace,
        workspaceId: membership.workspace.id,
        role: membership.role,
        approvalLimitCents: membership.approvalLimitCents,
      },
    });
  });

/**
 * A workspace API key holding `scope` (REST under /api/v1). The REST door authenticates the key
 * and checks the scope before reading the body; this re-checks both, so no route can forget.
 */
export const apiKeyProcedure = (scope: TApiKeyScope) =>
  publicProcedure.meta({ requiredScope: scope }).use(async ({ ctx, next }) => {
    const key = ctx.apiKey;
    if (!key) throw new AppError("unauthenticated", "Send a workspace API key as Authorization: Bearer <key>.");
    if (!key.scopes.includes(scope)) throw new AppError("insufficient_scope", `This key lacks the ${scope} scope.`);
    const actor: Actor = { kind: "api_key", id: key.id, label: `API key ${key.name}` };
    return next({
      ctx: { apiKey: key, workspaceId: key.workspaceId, actor, responseHeaders: ctx.responseHeaders ?? {} },
    });
  });
