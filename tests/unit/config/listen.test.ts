import net from "node:net";
import { describe, expect, it } from "vitest";
import { displayUrl, listenAddress, listenProblem } from "@/lib/config/listen";

describe("where the server listens", () => {
  it("binds to 127.0.0.1 unless HOST says otherwise", () => {
    expect(listenAddress({})).toEqual({ host: "127.0.0.1", port: 3000 });
    expect(listenAddress({ HOST: "" })).toEqual({ host: "127.0.0.1", port: 3000 });
    expect(listenAddress({ HOST: "0.0.0.0", PORT: "8080" })).toEqual({ host: "0.0.0.0", port: 8080 });
    expect(listenAddress({ HOST: "::" })).toEqual({ host: "::", port: 3000 });
    expect(listenAddress({ HOST: "app.internal" })).toEqual({ host: "app.internal", port: 3000 });
  });

  it("refuses a HOST or PORT that cannot be one, naming it", () => {
    expect(() => listenAddress({ HOST: "http://0.0.0.0" })).toThrow(/HOST=http:\/\/0\.0\.0\.0 is not an address or host name/);
    expect(() => listenAddress({ HOST: "a b" })).toThrow(/HOST=a b/);
    expect(() => listenAddress({ PORT: "70000" })).toThrow(/PORT=70000 is not a valid port number/);
  });

  it("prints a URL people can open", () => {
    expect(displayUrl({ host: "127.0.0.1", port: 3000 })).toBe("http://localhost:3000");
    expect(displayUrl({ host: "0.0.0.0", port: 3000 })).toBe("http://localhost:3000");
    expect(displayUrl({ host: "10.1.2.3", port: 80 })).toBe("http://10.1.2.3:80");
    expect(displayUrl({ host: "fd00::2", port: 80 })).toBe("http://[fd00::2]:80");
  });

  it("tells a port in use from an address this machine does not have", async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      expect(await listenProblem({ host: "127.0.0.1", port })).toBe("EADDRINUSE");
    } finally {
      await new Promise((r) => blocker.close(r));
    }
    expect(await listenProblem({ host: "127.0.0.1", port })).toBeNull();
    expect(await listenProblem({ host: "192.0.2.254", port })).toBe("EADDRNOTAVAIL");
  });
});
