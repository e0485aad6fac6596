import { describe, expect, it } from "vitest";
import { AppError } from "@/server/ground/errors";
import { readJsonObject } from "./body";

const post = (body: BodyInit, type = "application/json") =>
  new Request("http://localhost/api/v1/conversions", {
    method: "POST",
    headers: { "content-type": type },
    body,
    duplex: "half",
  } as RequestInit);

describe("readJsonObject", () => {
  it("reads a JSON object", async () => {
    expect(await readJsonObject(post('{"sid":"a"}'), [])).toEqual({ sid: "a" });
  });

  it("answers a body cut off by the client with malformed_request, not with the stream's error", async () => {
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"sid":'));
        controller.error(new Error("aborted"));
      },
    });
    const error = await readJsonObject(post(cut), []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "malformed_request",
      message: "The body could not be read to its end (the connection ended while it was sent).",
    });
  });
});
