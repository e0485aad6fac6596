import { describe, expect, it } from "vitest";
import * as route from "@/app/sample-piece/[side]/route";

const get = (side: string) =>
  route.GET(new Request(`http://localhost/sample-piece/${encodeURIComponent(side)}`), {
    params: Promise.resolve({ side }),
  });

describe("/sample-piece/{side}", { timeout: 120_000 }, () => {
  it("is rendered at request time, never through Next's route cache, so no path a client names is stored", () => {
    expect(route.dynamic).toBe("force-dynamic");
    expect("generateStaticParams" in route).toBe(false);
    expect("revalidate" in route).toBe(false);
  });

  it("answers the two sides as PNGs, and 404 (not cached) for any other side", async () => {
    for (const side of ["front.png", "back.png"]) {
      const res = await get(side);
      expect([res.status, res.headers.get("content-type")]).toEqual([200, "image/png"]);
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    }
    for (const side of ["front", "anything", "toString", "__proto__", "constructor", "front.png.png", "../x"]) {
      const res = await get(side);
      expect([side, res.status, res.headers.get("cache-control")]).toEqual([side, 404, "no-store"]);
    }
  });
});
