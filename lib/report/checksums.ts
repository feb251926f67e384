import { createHash } from "node:crypto";
import type { Dataset } from "@/lib/exports/contract";
import { exportStream, type ExportStudy } from "@/lib/exports/service";

/** Datasets the tables can be recomputed from: their SHA-256 goes in the appendix. */
export const CHECKSUM_DATASETS: readonly Dataset[] = ["grades", "sets"];

export interface ExportChecksum {
  dataset: string;
  format: string;
  sha256: string;
  bytes: number;
  call: string;
}

async function sha256OfExport(study: ExportStudy, dataset: Dataset): Promise<{ sha256: string; bytes: number }> {
  const stream = await exportStream(study, { dataset, format: "csv", identities: false, audit: false });
  const hash = createHash("sha256");
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
    bytes += value.byteLength;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/** The SHA-256 of each export the appendix lists, exactly as `GET export?dataset=…&format=csv` would send it. */
export function exportChecksums(study: ExportStudy): Promise<ExportChecksum[]> {
  return Promise.all(CHECKSUM_DATASETS.map(async (dataset) => ({ dataset, format: "csv", ...(await sha256OfExport(study, dataset)), call: `export?dataset=${dataset}&format=csv` })));
}
