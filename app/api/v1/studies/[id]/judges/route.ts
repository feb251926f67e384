import { LEAD_ROLES } from "@/lib/auth/roles";
import { JudgeBody } from "@/lib/judges/contract";
import { createJudge, listJudges } from "@/lib/judges/service";
import { apiRoute, readJson } from "@/lib/server/api-route";
import { requireStudyForLead } from "@/lib/studies/access";

type Params = { id: string };

/** The study's automated judges (leads of the study and admins; graders never see judges). */
export const GET = apiRoute<Params>(LEAD_ROLES, async ({ user, params }) => {
  const study = await requireStudyForLead(user, params.id);
  return { judges: await listJudges(study.id) };
});

export const POST = apiRoute<Params>(LEAD_ROLES, async ({ req, user, params, requestId, log }) => {
  const study = await requireStudyForLead(user, params.id);
  const input = await readJson(req, JudgeBody, 200_000);
  const judge = await createJudge({ id: user.id, requestId }, study.id, input);
  log.info({ studyId: study.id, judgeId: judge.id }, "judge registered");
  return Response.json(judge, { status: 201 });
});
