import { serveJob } from "@/lib/workers/serve";
import { exportChecksums, type ExportChecksum } from "./checksums";
import type { ExportStudy } from "@/lib/exports/service";

/** The report's export checksums in a thread of their own (./load.ts says why). */
serveJob<ExportStudy, ExportChecksum[]>((study) => exportChecksums(study));
