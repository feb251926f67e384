import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

/**
 * Gives zod schemas the `.openapi()` the registry needs. Imported by the
 * registry and by pure schema modules that may load before it (a schema made
 * before the extension cannot be registered).
 */
extendZodWithOpenApi(z);
