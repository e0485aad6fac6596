import { describe, expect, it } from "vitest";
import { ConfigError } from "@/server/ground/platform/config";
import { workerSettings } from "./worker-settings";

const postgres = { DATABASE_URL: "postgresql://app@db:5432/mail" };

describe("the background work's settings", () => {
  it("batches 250 events on PostgreSQL and 100 on the embedded database, unless WORKER_BATCH_SIZE says otherwise", () => {
    expect(workerSettings({ ...postgres })).toEqual({ batchSize: 250, leaseMs: undefined, jobConcurrency: 1 });
    expect(workerSettings({ DATA_DIR: "/tmp/x" })).toEqual({ batchSize: 100, leaseMs: undefined, jobConcurrency: 1 });
    expect(
      workerSettings({ ...postgres, WORKER_BATCH_SIZE: " 40 ", WORKER_LEASE_MS: "90000", JOB_CONCURRENCY: "3" }),
    ).toEqual({ batchSize: 40, leaseMs: 90_000, jobConcurrency: 3 });
    expect(workerSettings({ ...postgres, WORKER_BATCH_SIZE: "" }).batchSize).toBe(250);
  });

  it.each([
    ["WORKER_BATCH_SIZE", "abc", 'WORKER_BATCH_SIZE must be a whole number from 1 to 1000 (got "abc").'],
    ["WORKER_BATCH_SIZE", "0", 'WORKER_BATCH_SIZE must be a whole number from 1 to 1000 (got "0").'],
    ["WORKER_BATCH_SIZE", "2.5", 'WORKER_BATCH_SIZE must be a whole number from 1 to 1000 (got "2.5").'],
    ["WORKER_BATCH_SIZE", "5000", 'WORKER_BATCH_SIZE must be a whole number from 1 to 1000 (got "5000").'],
    ["WORKER_LEASE_MS", "500", 'WORKER_LEASE_MS must be a whole number from 1000 to 3600000 (got "500").'],
    ["WORKER_LEASE_MS", "-60000", 'WORKER_LEASE_MS must be a whole number from 1000 to 3600000 (got "-60000").'],
    ["JOB_CONCURRENCY", "1e2", 'JOB_CONCURRENCY must be a whole number from 1 to 32 (got "1e2").'],
  ])("refuses %s=%s with one sentence", (name, value, sentence) => {
    const read = () => workerSettings({ ...postgres, [name]: value });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(sentence);
  });
});
