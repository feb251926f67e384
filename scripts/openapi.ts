/**
 * The API description as a file, for the tools that read one: `npm run
 * openapi:write` writes what the server serves at /api/v1/openapi.json to
 * lib/api-client/openapi.json (committed, so clients can generate from the
 * repository; a test keeps it current), `npm run openapi:lint` lints it with
 * Redocly's recommended rules (redocly.yaml: a warning fails), and `npm run
 * openapi:client` regenerates the TypeScript types of lib/api-client from it.
 */
import { writeFileSync } from "node:fs";
import { openApiText } from "@/lib/api-client/document-file";

const out = process.argv[2] ?? "lib/api-client/openapi.json";
writeFileSync(out, openApiText());
console.log(`wrote ${out}`);
