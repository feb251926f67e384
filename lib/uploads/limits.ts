import { ApiError } from "@/lib/errors/api-error";

/**
 * What an uploaded file may decompress to and hold, beyond its compressed
 * size (IMPORT_MAX_BYTES): a 250 KB zip can inflate to gigabytes, and a small
 * file can hold millions of rows. Each limit is a setting (README,
 * configuration) and a refusal names it, so an operator knows what to raise.
 */

export const UPLOAD_LIMITS = {
  UPLOAD_MAX_PART_BYTES: { fallback: 512 * 1024 * 1024, what: "one part of the zip decompresses to more than" },
  UPLOAD_MAX_INFLATED_BYTES: { fallback: 1024 * 1024 * 1024, what: "the zip's parts decompress to more than" },
  UPLOAD_MAX_SHARED_STRINGS_BYTES: { fallback: 64 * 1024 * 1024, what: "the workbook's shared strings decompress to more than" },
  UPLOAD_MAX_SHARED_STRINGS: { fallback: 2_000_000, what: "the workbook holds more shared strings than" },
  UPLOAD_MAX_ROWS: { fallback: 2_000_000, what: "the file holds more rows than" },
  UPLOAD_MAX_CELLS: { fallback: 40_000_000, what: "the file holds more cells than" },
  UPLOAD_MAX_CELL_CHARS: { fallback: 32_767, what: "a cell holds more characters than" },
  UPLOAD_MAX_ROW_BYTES: { fallback: 16 * 1024 * 1024, what: "one row's XML is longer than" },
} as const;

export type UploadLimit = keyof typeof UPLOAD_LIMITS;

export function uploadLimit(name: UploadLimit): number {
  const configured = Number(process.env[name]);
  return Number.isFinite(configured) && configured > 0 ? Math.floor(configured) : UPLOAD_LIMITS[name].fallback;
}

const BYTES = new Set<UploadLimit>(["UPLOAD_MAX_PART_BYTES", "UPLOAD_MAX_INFLATED_BYTES", "UPLOAD_MAX_SHARED_STRINGS_BYTES", "UPLOAD_MAX_ROW_BYTES"]);

function shown(name: UploadLimit, n: number): string {
  if (BYTES.has(name)) return n >= 1024 * 1024 ? `${+(n / 1024 / 1024).toFixed(1)} MB` : `${n.toLocaleString("en")} bytes`;
  return n.toLocaleString("en");
}

/** A file past one of the limits: too large (413) for sizes, too much (422) for what it holds. */
export class UploadLimitError extends Error {
  constructor(
    readonly limit: UploadLimit,
    readonly where?: string,
  ) {
    super(`${UPLOAD_LIMITS[limit].what} ${shown(limit, uploadLimit(limit))} (${limit})${where ? `: ${where}` : ""}; nothing was imported`);
    this.name = "UploadLimitError";
  }

  get status(): 413 | 422 {
    return BYTES.has(this.limit) ? 413 : 422;
  }

  toApiError(): ApiError {
    return new ApiError(this.status, this.message, { errors: [{ sheet: null, row: 0, column: null, message: this.message }], total: 1, limit: this.limit });
  }
}

/** A counter that throws once its limit is passed. */
export class Budget {
  private used = 0;
  readonly max: number;
  constructor(
    readonly limit: UploadLimit,
    private readonly where?: string,
  ) {
    this.max = uploadLimit(limit);
  }
  add(n: number): void {
    this.used += n;
    if (this.used > this.max) throw new UploadLimitError(this.limit, this.where);
  }
}
