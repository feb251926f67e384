import { LEAD_ROLES } from "@/lib/auth/roles";
import { importArchive } from "@/lib/exports/archive-import";
import { StudyArchive } from "@/lib/exports/contract";
import { apiRoute, json, readJson } from "@/lib/server/api-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Largest document accepted (ARCHIVE_MAX_BYTES, default 256 MB): the import reads the whole document before writing anything. */
const maxBytes = () => Number(process.env.ARCHIVE_MAX_BYTES ?? 256 * 1024 * 1024);

/** POST /api/v1/study-archives: a `study` export becomes a new study owned by the caller. */
export const POST = apiRoute(LEAD_ROLES, async ({ req, user, requestId, log }) => {
  const doc = await readJson(req, StudyArchive, maxBytes());
  const started = Date.now();
  const imported = await importArchive(doc, { id: user.id, requestId });
  log.info({ studyId: imported.id, source: doc.source, placeholders: imported.placeholders, ms: Date.now() - started }, "study archive imported");
  return json({ id: imported.id, slug: imported.slug }, { status: 201 });
});
