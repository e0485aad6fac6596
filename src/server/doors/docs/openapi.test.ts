import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";

const base = "https://mail.acmecorp.io";

describe("openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const doc = buildOpenApiDocument(base);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("lints clean with Redocly's recommended rules", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dm-openapi-")), "openapi.json");
    fs.writeFileSync(file, JSON.stringify(buildOpenApiDocument(base)));
    const result = await promisify(execFile)(
      path.resolve("node_modules/.bin/redocly"),
      ["lint", file, "--format", "json"],
      { maxBuffer: 10_000_000 },
    ).catch((e) => e);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf("{")));
    expect(report.problems).toEqual([]);
  }, 60_000);

  it("documents 202 for the accepting endpoints, problem documents for every failure, and the scopes", () => {
    // OpenAPIObject types each path item loosely (references or objects); read the members asserted on.
    const doc = buildOpenApiDocument(base) as unknown as {
      paths: Record<
        string,
        Record<string, { security: unknown; responses: Record<string, { content?: Record<string, unknown> }> }>
      >;
    };
    const post = doc.paths["/v1/campaigns/{campaignId}/events"].post;
    expect(post.responses["202"].content!["application/json"]).toBeDefined();
    expect(post.responses["200"]).toBeUndefined();
    for (const [status, response] of Object.entries(post.responses)) {
      if (status !== "202") expect(Object.keys(response.content!), status).toEqual(["application/problem+json"]);
    }
    expect(JSON.stringify(doc)).toContain(`${base}/problems/idempotency-key-reused`);
  });

  it("describes the entry event status read as the specification's bounded record", () => {
    // OpenAPIObject types each path item loosely (references or objects); read the members asserted on.
    const doc = buildOpenApiDocument(base) as unknown as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
      >;
      components?: { schemas?: Record<string, unknown> };
    };
    let schema = doc.paths["/v1/campaigns/{campaignId}/events/{eventId}"].get.responses["200"].content![
      "application/json"
    ].schema as { $ref?: string; properties?: Record<string, unknown>; required?: string[] };
    if (schema.$ref) schema = doc.components!.schemas![schema.$ref.split("/").pop()!] as typeof schema;
    const fields = Object.keys(schema.properties!);
    expect(fields).not.toContain("source");
    for (const f of ["eventId", "status", "occurredAt", "skipReason", "enrollmentId", "completedAt"])
      expect(fields).toContain(f);
    expect([...schema.required!].sort()).toEqual(["eventId", "occurredAt", "status"]);
  });
});
