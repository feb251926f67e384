import net from "node:net";
import { StartupError } from "@/lib/db/embedded";

export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * Where the server listens: PORT (default 3000) on HOST, by default 127.0.0.1,
 * so that only this machine (and a reverse proxy on it) reaches the app until
 * someone decides otherwise (HOST=0.0.0.0 for every interface, as in a container).
 */
export function listenAddress(env: Record<string, string | undefined> = process.env): ListenAddress {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new StartupError(`PORT=${env.PORT} is not a valid port number.`);
  const host = env.HOST?.trim() || "127.0.0.1";
  if (!net.isIP(host) && !/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/i.test(host)) {
    throw new StartupError(`HOST=${env.HOST} is not an address or host name. Use 127.0.0.1 (this machine only, the default) or 0.0.0.0 (every interface).`);
  }
  return { host, port };
}

/** The address to print for people to open: wildcard and loopback binds are reached as localhost. */
export function displayUrl({ host, port }: ListenAddress): string {
  if (["0.0.0.0", "::", "127.0.0.1", "::1", "localhost"].includes(host)) return `http://localhost:${port}`;
  return `http://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/** Why the address cannot be listened on (null when it can): tried by listening and closing at once. */
export function listenProblem({ host, port }: ListenAddress): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen(port, host, () => server.close(() => resolve(null)));
  });
}
