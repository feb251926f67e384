import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

/**
 * Gives zod schemas the `.openapi()` the registry needs. Imported by the
 * registry and by pure schema modules that may load before it (a schema made
 * before the extension cannot be registered).
 */
extendZodWithOpenApi(z);

// In the browser zod would probe for eval (new Function) to compile its object parsers, which the
// nonce CSP reports as a violation; the server keeps the faster compiled parsers.
if (typeof window !== "undefined") z.config({ jitless: true });
