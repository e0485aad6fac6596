import { describe, expect, it } from "vitest";
import { ConfigError } from "./config";
import { describeStartupError } from "./startup-error";

const pgTarget = { kind: "postgres" as const, url: "postgresql://app:pw@db.internal:5432/mail" };

describe("describeStartupError", () => {
  it("passes a ConfigError's sentence through", () => {
    expect(describeStartupError(new ConfigError("Bad setting."))).toBe("Bad setting.");
  });

  it("explains an unreachable PostgreSQL without its password", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED 10.0.0.9:5432"), { code: "ECONNREFUSED" });
    expect(describeStartupError(error, pgTarget)).toBe(
      "Cannot reach the PostgreSQL database at postgresql://app:***@db.internal:5432/mail: the connection was refused; check DATABASE_URL.",
    );
  });

  it("reads the schema engine's wording and nested causes", () => {
    const engine = new Error("Can't reach database server at `db.internal:5432`");
    expect(describeStartupError(engine, pgTarget)).toMatch(/^Cannot reach the PostgreSQL database/);
    const nested = new Error("wrapper", { cause: Object.assign(new Error("x"), { code: "ENOTFOUND" }) });
    expect(describeStartupError(nested, pgTarget)).toMatch(/the host was not found/);
  });

  it("names a missing database and refused credentials", () => {
    expect(describeStartupError(new Error('database "mail" does not exist'), pgTarget)).toMatch(
      /does not exist; create it/,
    );
    expect(describeStartupError(new Error('password authentication failed for user "app"'), pgTarget)).toMatch(
      /refused the credentials/,
    );
  });

  it("keeps real bugs as they are (null: the caller rethrows)", () => {
    expect(describeStartupError(new TypeError("x is undefined"), pgTarget)).toBeNull();
    expect(describeStartupError(new Error("ECONNREFUSED"), { kind: "embedded", dataDir: "/d" })).toBeNull();
  });
});
