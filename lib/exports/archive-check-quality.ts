import { checkExpected } from "@/lib/quality-tasks/expected";
import { archiveRubrics } from "./archive-rubrics";
import type { ArchiveChecker, ArchiveSink } from "./archive-check";
import { checkGrades } from "./archive-grades";
import { ArchiveQualitySet, ArchiveQualityTask } from "./contract";

/**
 * The study archive's grader-quality records (issue #35), checked as the checker
 * (lib/exports/archive-check.ts) checks the others: a calibration or gold set is a set of the
 * document nobody was assigned, marked once, its expected scores as marking a set checks them; a
 * task names a grader and a set of the document, a calibration or gold task a set marked for its
 * purpose, a re-grade the grader's PRIMARY assignment on the set; no task twice.
 */
export class QualityChecks {
  /** Each calibration or gold set's purpose, by set index. */
  private readonly qualityPurpose = new Map<number, string>();
  private readonly tasks = new Set<string>();

  constructor(
    private readonly host: ArchiveChecker,
    private readonly sink: ArchiveSink,
  ) {}

  qualitySet(at: string, v: unknown): void {
    const x = this.host.parse(ArchiveQualitySet, v, at);
    if (!x) return;
    const before = this.host.total;
    const ref = this.host.setOf(at, x.item, x.model);
    if (ref && ref.index === undefined) this.host.add(at, `no set for item ${x.item} and model ${x.model}`);
    if (this.host.studyDoc) {
      // The same check as marking a set (lib/quality-tasks/expected.ts); 0 names the whole set there as null.
      const { problems } = checkExpected(x.expected.map((c) => ({ ...c, repetition: c.repetition === 0 ? null : c.repetition })), archiveRubrics(this.host.studyDoc.rubrics), this.host.studyDoc.repetitions);
      for (const p of problems) this.host.add(`${at}.${p.path}`, p.message);
    }
    if (ref?.index === undefined || this.host.total !== before) return;
    if (this.qualityPurpose.has(ref.index)) return this.host.add(at, "this set is marked twice");
    if (this.host.assignedSets.has(ref.index)) return this.host.add(at, "a calibration or gold set is never assigned as real work: this set has assignments");
    this.qualityPurpose.set(ref.index, x.purpose);
    if (!this.host.failed) this.sink.qualitySet(ref.index, x);
  }

  /** At the end of the document: a study that requires calibration has a calibration set to deal (as the settings call asks). */
  finish(): void {
    if (!this.host.studyDoc?.quality?.calibrationRequired || [...this.qualityPurpose.values()].includes("CALIBRATION")) return;
    // Its graders who have not passed would wait for a round that cannot be dealt, with no real work to do.
    this.host.add("study.quality.calibrationRequired", "calibration is required but no set is marked as a calibration set in qualitySets");
  }

  qualityTask(at: string, v: unknown): void {
    const x = this.host.parse(ArchiveQualityTask, v, at);
    if (!x) return;
    const before = this.host.total;
    const ref = this.host.setOf(at, x.item, x.model);
    if (ref && ref.index === undefined) this.host.add(at, `no set for item ${x.item} and model ${x.model}`);
    const grader = this.host.graderIds.get(x.grader);
    if (grader === undefined) this.host.add(`${at}.grader`, `no grader ${x.grader} in graders`);
    if (x.purpose !== "CALIBRATION" && x.round !== 1) this.host.add(`${at}.round`, "only a calibration task has a round other than 1");
    const n = this.host.studyDoc?.repetitions;
    if (x.answerOrder.length && (x.answerOrder.length !== n || new Set(x.answerOrder).size !== n || x.answerOrder.some((r) => r > n))) {
      this.host.add(`${at}.answerOrder`, `must be empty or an order of 1..${n ?? "N"} (the study's N)`);
    }
    if (x.harmFlag && !x.harmComment?.trim()) this.host.add(`${at}.harmComment`, "a harm flag needs a comment");
    if (!x.contradictionFlag && x.contradictionNote !== null) this.host.add(`${at}.contradictionNote`, "a contradiction note goes with the flag");
    checkGrades((path, message) => this.host.add(path, message), at, x.grades, this.host.studyDoc);
    if (ref?.index === undefined || grader === undefined) return;
    if (x.purpose === "REGRADE") {
      if (!this.host.isPrimary(ref.index, grader)) this.host.add(at, `a re-grade follows the grader's PRIMARY assignment on the set: ${x.grader} has none on it`);
    } else if (this.qualityPurpose.get(ref.index) !== x.purpose) {
      this.host.add(at, `the set is not marked as a ${x.purpose.toLowerCase()} set in qualitySets`);
    }
    if (this.host.total !== before) return;
    const k = `${grader}/${ref.index}/${x.purpose}/${x.round}`;
    if (this.tasks.has(k)) return this.host.add(at, "this task (grader, set, purpose, round) appears twice");
    this.tasks.add(k);
    if (!this.host.failed) this.sink.qualityTask(ref.index, grader, x);
  }
}
