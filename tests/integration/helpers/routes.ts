import { readdirSync, statSync } from "node:fs";
import path from "node:path";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return routeFiles(p);
    return name === "route.ts" ? [p] : [];
  });
}

const API = path.resolve("app/api");

/** Every route handler module under app/api, with its URL pattern ("/api/v1/studies/[id]"). */
export const apiRoutes = routeFiles(API).map((file) => ({ file, url: "/api/" + path.relative(API, path.dirname(file)).split(path.sep).join("/") }));
