import type { JobKind, Prisma, PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/ground/db";
import type { z } from "zod";
import type { JobRow } from "./schema";

/** A failure the person (or agent) can act on: the job ends `failed` with this sentence, no retry. */
export class JobError extends Error {
  override name = "JobError";
}

/** Thrown by `progress`/`checkpoint` when the person cancelled the job: it ends `cancelled`. */
export class JobCancelled extends Error {
  override name = "JobCancelled";
  constructor() {
    super("The job was cancelled.");
  }
}

/** Thrown when this worker's lease ran out and another worker took the job over: stop quietly. */
export class JobLeaseLost extends Error {
  override name = "JobLeaseLost";
  constructor() {
    super("Another worker has taken this job over.");
  }
}

/** What a handler gets for one run of its job. */
export interface JobRun<I> {
  db: PrismaClient;
  job: JobRow;
  /** The job's input, parsed by the handler's schema. */
  input: I;
  /** The checkpoint the previous run saved (null on a first run): where to resume. */
  resumeFrom: Prisma.JsonValue | null;
  now: () => Date;
  /**
   * Reports progress and renews the lease; call it at least every few seconds. Throws JobCancelled
   * when the person cancelled, JobLeaseLost when another worker took over.
   */
  progress(done: number, total?: number | null): Promise<void>;
  /**
   * Saves where to resume, inside the transaction that wrote the batch it follows (so a crash
   * never leaves a batch without its checkpoint or the reverse). Throws like `progress`, which
   * rolls the batch back.
   */
  checkpoint(tx: Db, checkpoint: Prisma.InputJsonValue, done: number, total?: number | null): Promise<void>;
}

export interface JobHandler<S extends z.ZodType = z.ZodType> {
  kind: JobKind;
  /** Validates the input when the job is queued and again when it runs. */
  input: S;
  /** Does the work and returns the result stored on the job (counts, a report). */
  run(run: JobRun<z.output<S>>): Promise<Prisma.InputJsonValue>;
}

/** The job's stored input as its handler reads it; a JobError (the job fails with the sentence) when it does not match the handler's schema. */
export function jobInput<S extends z.ZodType>(handler: JobHandler<S>, input: unknown): z.output<S> {
  const parsed = handler.input.safeParse(input);
  if (!parsed.success) throw new JobError("The job's input is not valid; start it again.");
  return parsed.data;
}

export function defineJobHandler<S extends z.ZodType>(handler: JobHandler<S>): JobHandler<S> {
  return handler;
}
