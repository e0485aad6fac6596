import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, databaseTarget, describeTarget, redactUrl } from "./config";

describe("databaseTarget", () => {
  it("uses the embedded PGlite in .data/pglite by default", () => {
    expect(databaseTarget({})).toEqual({ kind: "embedded", dataDir: path.resolve(".data", "pglite") });
  });

  it("honours DATA_DIR", () => {
    expect(databaseTarget({ DATA_DIR: "/srv/dm" })).toEqual({ kind: "embedded", dataDir: "/srv/dm/pglite" });
  });

  it("switches to PostgreSQL when DATABASE_URL is a postgresql:// URL", () => {
    for (const url of ["postgresql://u:p@db:5432/app", "postgres://db/app"]) {
      expect(databaseTarget({ DATABASE_URL: url })).toEqual({ kind: "postgres", url });
    }
  });

  it("refuses another scheme with one sentence that hides the password", () => {
    expect(() => databaseTarget({ DATABASE_URL: "mysql://root:hunter2@db/app" })).toThrowError(ConfigError);
    try {
      databaseTarget({ DATABASE_URL: "mysql://root:hunter2@db/app" });
    } catch (error) {
      expect((error as Error).message).toBe(
        'DATABASE_URL must be a postgresql:// URL (got "mysql://root:***@db/app"); unset it to use the embedded database.',
      );
    }
  });
});

describe("redactUrl and describeTarget", () => {
  it("replaces only the password", () => {
    expect(redactUrl("postgresql://app:s3cret@10.0.0.5:5432/mail")).toBe("postgresql://app:***@10.0.0.5:5432/mail");
    expect(redactUrl("postgresql://10.0.0.5/mail")).toBe("postgresql://10.0.0.5/mail");
  });

  it("names each target for logs", () => {
    expect(describeTarget({ kind: "postgres", url: "postgresql://a:b@h/d" })).toBe(
      "PostgreSQL at postgresql://a:***@h/d",
    );
    expect(describeTarget({ kind: "embedded", dataDir: "/x/pglite" })).toBe("embedded PGlite in /x/pglite");
  });
});
