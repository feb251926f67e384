import { z } from "zod";

/** The import routes' query flag `dryRun`: "1" or "true" checks the file and writes nothing; "0", "false" or absent imports. */
export const DryRunFlag = z.enum(["0", "1", "true", "false"]).optional();

export type DryRunFlag = z.infer<typeof DryRunFlag>;

export const isDryRun = (flag: DryRunFlag): boolean => flag === "1" || flag === "true";
