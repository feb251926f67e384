import { describe, expect, it } from "vitest";
import { requestIdFrom } from "@/lib/server/request";
import { homeFor } from "@/lib/auth/roles";

describe("request helpers", () => {
  it("keeps an incoming request id and makes one otherwise", () => {
    expect(requestIdFrom(new Headers({ "x-request-id": "abc-123-def" }))).toBe("abc-123-def");
    expect(requestIdFrom(new Headers())).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends each role to its landing page", () => {
    expect(homeFor("GRADER")).toBe("/queue");
    expect(homeFor("LEAD")).toBe("/studies");
    expect(homeFor("ADMIN")).toBe("/admin/users");
  });
});
