import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ProtocolPanel } from "@/components/protocol/protocol-panel";
import { StudySettingsForm } from "@/components/studies/study-settings-form";
import { protocolCanBeFrozen, protocolState } from "@/lib/protocol/service";
import { pilotTriggerRates } from "@/lib/analytics/pilot-trigger-rates";
import { settingsLockedFor } from "@/lib/studies/locks";
import { loadStudyForPage } from "@/lib/studies/page-access";
import { studyDetail } from "@/lib/studies/service";

export const metadata: Metadata = { title: "Study settings" };

export default async function StudySettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { study } = await loadStudyForPage(id);
  const detail = await studyDetail(study.id);
  if (!detail) notFound();
  const { name, graderTitle, description, rubrics, rubricDocuments, repetitions, gradersPerSet, thresholds, escalationRules, showReferenceAnswer, askContradictions, matchSpecialty, safeLlmScoring, tieDisagrees } = detail;
  const triggerRates = detail.gradingStarted ? await pilotTriggerRates(detail.id) : {};
  const [protocol, canFreeze] = await Promise.all([protocolState(detail.id), protocolCanBeFrozen(detail.id)]);
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">Settings</h2>
      <StudySettingsForm
        mode="edit"
        studyId={detail.id}
        initial={{ name, graderTitle, description, rubrics, rubricDocuments, repetitions, gradersPerSet, thresholds, escalationRules, showReferenceAnswer, askContradictions, matchSpecialty, safeLlmScoring, tieDisagrees }}
        locks={settingsLockedFor(detail.gradingStarted)}
        frozen={detail.status === "CLOSED" ? "The study is closed, so its results are frozen: escalation can no longer change (reopen the study to change it)." : null}
        triggerRates={triggerRates}
        protocolFrozenAt={protocol.frozenAt}
      />
      <ProtocolPanel studyId={detail.id} state={protocol} canFreeze={canFreeze} />
    </div>
  );
}
