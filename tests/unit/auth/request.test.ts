import { describe, expect, it } from "vitest";
import { clientAddress, requestIdFrom } from "@/lib/server/request";
import { homeFor } from "@/lib/auth/roles";

describe("request helpers", () => {
  it("takes the first X-Forwarded-For hop as the client address", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.7, 10.0.0.1" }))).toBe("203.0.113.7");
    expect(clientAddress(new Headers({ "x-real-ip": "198.51.100.2" }))).toBe("198.51.100.2");
    expect(clientAddress(new Headers())).toBe("unknown");
  });

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
