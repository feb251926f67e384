import type { z } from "zod";
import { parseTableParams } from "@/lib/tables/search-params";
import { ApiError } from "@/lib/errors/api-error";

/** Reads a table endpoint's query string strictly: any bad param is a 422 naming it. */
export function readQuery<S extends z.ZodObject>(req: Request, schema: S): z.output<S> {
  const { data, issues } = parseTableParams(schema, new URL(req.url).searchParams);
  if (issues.length) throw new ApiError(422, "invalid query parameters", issues);
  return data;
}
