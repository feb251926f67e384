import { ApiError } from "@/lib/errors/api-error";

export function mappingProblem(message: string, column: string | null = "mapping"): ApiError {
  return new ApiError(422, `the mapping is not right: ${message}`, { errors: [{ sheet: null, row: 0, column, message }], total: 1 });
}
