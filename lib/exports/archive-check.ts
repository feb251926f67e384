import type { z } from "zod";
import { checkGrades } from "./archive-grades";
import { QualityChecks } from "./archive-check-quality";
import { checkComparison } from "./archive-comparisons";
import type { ArchiveEvent } from "./archive-read";
import {
  ARCHIVE_HEAD,
  ARCHIVE_LIMITS,
  ArchiveAssignment,
  ArchiveComparison,
  ArchiveEscalation,
  ArchiveGrader,
  ArchiveItem,
  ArchiveModel,
  type ArchiveQualitySet,
  type ArchiveQualityTask,
  ArchiveScreen,
  ArchiveScreenHit,
  ArchiveScreenVerdict,
  ArchiveSet,
  StudyArchive,
  type ArchiveStudy,
} from "./contract";

/**
 * Checks a study archive as it streams in (lib/exports/archive-read.ts),
 * element by element, with the contract's schemas and against what came
 * before: every reference resolves, nothing repeats, scores and repetitions
 * are within the rubric and the study's N. It keeps compact maps (ids to
 * indexes), never the elements, and hands each element that passed to the
 * sink, which writes it. Every problem is listed, up to MAX_PROBLEMS.
 *
 * One pass means an order: the small members (format ... graders, models)
 * come before items, then sets, assignments and escalations, as the export
 * writes them.
 */

export interface ArchiveProblem {
  path: string;
  message: string;
}

export const MAX_PROBLEMS = 200;

type Item = z.output<typeof ArchiveItem>;
type Model = z.output<typeof ArchiveModel>;
type Grader = z.output<typeof ArchiveGrader>;
type Set_ = z.output<typeof ArchiveSet>;
type Assignment = z.output<typeof ArchiveAssignment>;
type Escalation = z.output<typeof ArchiveEscalation>;
type Screen = z.output<typeof ArchiveScreen>;
type ScreenHit = z.output<typeof ArchiveScreenHit>;
type ScreenVerdict = z.output<typeof ArchiveScreenVerdict>;
type QualitySet = z.output<typeof ArchiveQualitySet>;
type QualityTask = z.output<typeof ArchiveQualityTask>;

export interface ArchiveHead {
  exportedAt: string;
  source: { studyId: string; slug: string };
  identities: boolean;
  study: z.output<typeof ArchiveStudy>;
  specialties: string[];
  graders: Grader[];
  models: Model[];
}

export interface ArchiveSink {
  item(index: number, item: Item): void;
  set(index: number, item: number, model: number, set: Set_): void;
  /** `key` names the assignment by set and grader (assignmentKey); `grader` indexes head.graders. */
  assignment(key: number, set: number, grader: number, assignment: Assignment): void;
  escalation(set: number, adjudicatorKey: number | null, escalation: Escalation): void;
  screen(index: number, screen: Screen): void;
  /** `repetition` is the set's answer's: the set has it (checked). */
  screenHit(screen: number, set: number, hit: ScreenHit): void;
  screenVerdict(screen: number, set: number, verdict: ScreenVerdict): void;
  qualitySet(set: number, qualitySet: QualitySet): void;
  /** `grader` indexes head.graders; a re-grade's first grading is the grader's PRIMARY assignment on the set (checked). */
  qualityTask(set: number, grader: number, task: QualityTask): void;
  /** A pairwise comparison: its item, its two answers' sets, and each assignment's grader (./archive-comparisons.ts). */
  comparison(item: number, left: number, right: number, graders: number[], comparison: z.output<typeof ArchiveComparison>): void;
}

const HEAD_VALUES = ["format", "version", "exportedAt", "source", "identities", "study"] as const;
const HEAD_ARRAYS = ["specialties", "graders", "models"] as const;
const SECTIONS = ["items", "sets", "assignments", "escalations", "screens", "screenHits", "screenVerdicts", "qualitySets", "qualityTasks", "comparisons"] as const;
const MEMBERS = [...HEAD_VALUES, ...HEAD_ARRAYS, ...SECTIONS, "audit"];
/** Members an archive may leave out: archives written before the screen have no screen sections, before grader quality no quality ones, scoring studies no comparisons. */
const OPTIONAL = new Set(["audit", "screens", "screenHits", "screenVerdicts", "qualitySets", "qualityTasks", "comparisons"]);
type HeadValue = (typeof HEAD_VALUES)[number];

const isIn = <T extends string>(list: readonly T[], key: string): key is T => (list as readonly string[]).includes(key);
const setKey = (item: number, model: number) => item * ARCHIVE_LIMITS.models + model;
export const assignmentKey = (set: number, grader: number) => set * ARCHIVE_LIMITS.graders + grader;

function zodPath(base: string, path: PropertyKey[]): string {
  return path.reduce<string>((p, s) => (typeof s === "number" ? `${p}[${s}]` : `${p}.${String(s)}`), base);
}

export class ArchiveChecker {
  readonly problems: ArchiveProblem[] = [];
  total = 0;
  private readonly seen = new Set<string>();
  /** Members whose content is not looked at (unknown, repeated, out of order). */
  private readonly ignored = new Set<string>();
  private readonly head: Partial<Record<HeadValue, unknown>> = {};
  private readonly specialties: string[] = [];
  private readonly graders: Grader[] = [];
  private readonly models: Model[] = [];
  private readonly graderIndex = new Map<string, number>();
  private readonly modelIndex = new Map<string, number>();
  /** Set when the first section opens. */
  private opened = false;
  private section = -1;
  private study: z.output<typeof ArchiveStudy> | null = null;
  private readonly items = new Map<string, number>();
  private readonly sets = new Map<number, number>();
  private readonly assignments = new Set<number>();
  private readonly adjudications = new Set<number>();
  private readonly escalated = new Set<number>();
  /** Each set's repetitions (a screen names answers by set and repetition). */
  private readonly setReps = new Map<number, Set<number>>();
  private readonly screens = new Map<string, number>();
  private readonly screenRules: number[] = [];
  private readonly screened = new Set<string>();
  /** Sets with an assignment that is not cancelled: never a calibration or gold set. */
  readonly assignedSets = new Set<number>();
  private readonly quality: QualityChecks;
  private readonly comparedPairs = new Set<string>();

  constructor(private readonly sink: ArchiveSink) {
    this.quality = new QualityChecks(this, sink);
  }

  /** The study of the head once read (the quality checks read its rubrics and N). */
  get studyDoc(): z.output<typeof ArchiveStudy> | null {
    return this.study;
  }

  /** Whether the grader has a PRIMARY assignment on the set (a re-grade's first grading). */
  isPrimary(set: number, grader: number): boolean {
    const key = assignmentKey(set, grader);
    return this.assignments.has(key) && !this.adjudications.has(key);
  }

  get failed(): boolean {
    return this.total > 0;
  }

  add(path: string, message: string): void {
    this.total++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ path, message });
  }

  parse<S extends z.ZodType>(schema: S, value: unknown, path: string): z.output<S> | null {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    for (const i of r.error.issues) this.add(zodPath(path, i.path), i.message);
    return null;
  }

  /**
   * Takes one event of the reader. True when this event ended the head (the
   * first section begins): the caller writes the head (`headOf`) before the
   * next event.
   */
  accept(e: ArchiveEvent): boolean {
    if (e.type === "refused") {
      this.add(e.index < 0 ? e.key : `${e.key}[${e.index}]`, e.message);
      return false;
    }
    if (e.type === "open" || e.type === "value") {
      const closed = this.member(e.key);
      if (e.type === "value" && !this.ignored.has(e.key)) this.value(e.key, e.value);
      return closed;
    }
    if (e.type === "elements" && !this.ignored.has(e.key)) {
      for (let j = 0; j < e.elements.length; j++) this.element(e.key, e.from + j, e.elements[j]);
    }
    return false;
  }

  private member(key: string): boolean {
    if (!MEMBERS.includes(key)) {
      this.add(key, `unknown member; a study archive has ${MEMBERS.join(", ")}`);
      this.ignored.add(key);
      return false;
    }
    if (this.seen.has(key)) {
      this.add(key, "appears twice");
      this.ignored.add(key);
      return false;
    }
    this.seen.add(key);
    if (isIn(HEAD_VALUES, key) || isIn(HEAD_ARRAYS, key)) {
      if (this.opened) {
        this.add(key, "must come before items, sets, assignments and escalations: the archive is read in one pass, in the export's order");
        this.ignored.add(key);
      }
      return false;
    }
    let closed = false;
    if (isIn(SECTIONS, key)) {
      if (!this.opened) closed = this.closeHead();
      const at = SECTIONS.indexOf(key);
      if (at < this.section) this.add(key, `must come before ${SECTIONS[this.section]}, as in the export`);
      this.section = Math.max(this.section, at);
    }
    return closed;
  }

  private value(key: string, value: unknown): void {
    if (isIn(HEAD_VALUES, key)) {
      const parsed = this.parse(ARCHIVE_HEAD[key] as z.ZodType, value, key);
      if (parsed !== null) this.head[key] = parsed;
    } else {
      this.add(key, "must be an array");
    }
  }

  private closeHead(): true {
    this.opened = true;
    this.study = (this.head.study as ArchiveHead["study"] | undefined) ?? null;
    if (this.head.identities === true) {
      this.graders.forEach((g, i) => g.email === null && this.add(`graders[${i}].email`, "identities is true, so every grader needs an email"));
    }
    return true;
  }

  /** The document's graders so far, by id (their index in the head's graders). */
  get graderIds(): ReadonlyMap<string, number> {
    return this.graderIndex;
  }

  /** The head, once read: null if it is incomplete or wrong (the rest is still checked, nothing is written). */
  headOf(): ArchiveHead | null {
    const h = this.head;
    const complete = HEAD_VALUES.every((k) => k in h) && HEAD_ARRAYS.every((k) => this.seen.has(k));
    if (!complete || this.failed) return null;
    return {
      exportedAt: h.exportedAt as string,
      source: h.source as ArchiveHead["source"],
      identities: h.identities as boolean,
      study: this.study!,
      specialties: this.specialties,
      graders: this.graders,
      models: this.models,
    };
  }

  /** Ends the document (a missing member is a problem too). True if the head ended only now. */
  finish(): boolean {
    const closed = !this.opened && this.closeHead();
    for (const key of MEMBERS) if (!OPTIONAL.has(key) && !this.seen.has(key)) this.add(key, "is missing");
    this.quality.finish();
    return closed;
  }

  private element(key: string, i: number, v: unknown): void {
    const at = `${key}[${i}]`;
    switch (key) {
      case "specialties":
      case "graders":
      case "models":
        return this.headElement(key, i, v);
      case "items":
        return this.item(at, v);
      case "sets":
        return this.set(at, v);
      case "assignments":
        return this.assignment(at, v);
      case "escalations":
        return this.escalation(at, v);
      case "screens":
        return this.screen(at, v);
      case "screenHits":
      case "screenVerdicts":
        return this.screenAnswer(key, at, v);
      case "qualitySets":
        return this.quality.qualitySet(at, v);
      case "qualityTasks":
        return this.quality.qualityTask(at, v);
      case "comparisons":
        return this.comparison(at, v);
      case "audit":
        if (v === null || typeof v !== "object" || Array.isArray(v)) this.add(at, "must be an object");
        return;
      default:
        this.add(key, "must not be an array");
        this.ignored.add(key);
    }
  }

  private headElement(key: "specialties" | "graders" | "models", i: number, v: unknown): void {
    const at = `${key}[${i}]`;
    const max = ARCHIVE_LIMITS[key];
    if (i >= max) {
      if (i === max) this.add(key, `more than ${max.toLocaleString("en")} ${key}`);
      return;
    }
    const element = (StudyArchive.shape[key] as unknown as z.ZodArray<z.ZodType>).element;
    const parsed = this.parse(element, v, at);
    if (parsed === null) return;
    if (key === "specialties") this.specialties.push(parsed as string);
    else if (key === "graders") {
      const g = parsed as Grader;
      if (this.graderIndex.has(g.id)) return this.add(`${at}.id`, "this grader id appears twice");
      this.graderIndex.set(g.id, this.graders.length);
      this.graders.push(g);
    } else {
      const m = parsed as Model;
      if (this.modelIndex.has(m.name)) return this.add(`${at}.name`, "this model name appears twice");
      this.modelIndex.set(m.name, this.models.length);
      this.models.push(m);
    }
  }

  private comparison(at: string, v: unknown): void {
    const c = this.parse(ArchiveComparison, v, at);
    if (!c) return;
    const checked = checkComparison(
      {
        study: this.study,
        add: (path, message) => this.add(path, message),
        setOf: (path, item, model) => {
          const ref = this.setOf(path, item, model);
          if (ref && ref.index === undefined) this.add(path, `no set for item ${item} and model ${model}`);
          return ref?.index === undefined ? undefined : { index: ref.index, repetitions: this.setReps.get(ref.index) ?? new Set() };
        },
        graderIndex: this.graderIndex,
        pairs: this.comparedPairs,
      },
      at,
      c,
    );
    if (checked && !this.failed) this.sink.comparison(this.items.get(c.item)!, checked.left, checked.right, checked.graders, c);
  }

  private item(at: string, v: unknown): void {
    const item = this.parse(ArchiveItem, v, at);
    if (!item) return;
    if (this.items.has(item.id)) return this.add(`${at}.id`, "this item id appears twice");
    const index = this.items.size;
    this.items.set(item.id, index);
    if (!this.failed) this.sink.item(index, item);
  }

  /** The set's index, or undefined after naming what is missing. */
  setOf(at: string, item: string, model: string): { key: number; index: number | undefined } | undefined {
    const i = this.items.get(item);
    const m = this.modelIndex.get(model);
    if (i === undefined) this.add(`${at}.item`, `no item ${item} in items`);
    if (m === undefined) this.add(`${at}.model`, `no model ${model} in models`);
    if (i === undefined || m === undefined) return undefined;
    const key = setKey(i, m);
    return { key, index: this.sets.get(key) };
  }

  private set(at: string, v: unknown): void {
    const set = this.parse(ArchiveSet, v, at);
    if (!set) return;
    const ref = this.setOf(at, set.item, set.model);
    const n = this.study?.repetitions;
    if (set.decision && set.status !== "AGREED" && set.status !== "ADJUDICATED") this.add(`${at}.decision`, "a decision follows a set's final scores: this set is not final");
    const reps = new Set<number>();
    set.answers.forEach((a, j) => {
      if (reps.has(a.repetition)) this.add(`${at}.answers[${j}].repetition`, "this repetition appears twice");
      reps.add(a.repetition);
      if (n !== undefined && a.repetition > n) this.add(`${at}.answers[${j}].repetition`, `repetition ${a.repetition} is outside 1..${n} (the study's N)`);
    });
    if (!ref) return;
    if (ref.index !== undefined) return this.add(at, "this (item, model) set appears twice");
    const index = this.sets.size;
    this.sets.set(ref.key, index);
    this.setReps.set(index, reps);
    if (!this.failed) this.sink.set(index, this.items.get(set.item)!, this.modelIndex.get(set.model)!, set);
  }

  private assignment(at: string, v: unknown): void {
    const a = this.parse(ArchiveAssignment, v, at);
    if (!a) return;
    const before = this.total;
    const ref = this.setOf(at, a.item, a.model);
    if (ref && ref.index === undefined) this.add(at, `no set for item ${a.item} and model ${a.model}`);
    const grader = this.graderIndex.get(a.grader);
    if (grader === undefined) this.add(`${at}.grader`, `no grader ${a.grader} in graders`);
    // As the assignment run refuses them (lib/assignment/service.ts): a pairwise study's graders' work is in comparisons.
    if (this.study?.design === "PAIRWISE") this.add(at, "a pairwise study has no scoring assignments: its graders' work is in comparisons");
    if (a.harmFlag && !a.harmComment?.trim()) this.add(`${at}.harmComment`, "a harm flag needs a comment");
    if (a.contradictionFlag && this.study && this.study.repetitions < 2) this.add(`${at}.contradictionFlag`, "a set with one answer has nothing to contradict");
    if (!a.contradictionFlag && a.contradictionNote !== null) this.add(`${at}.contradictionNote`, "a contradiction note goes with the flag");
    checkGrades((path, message) => this.add(path, message), at, a.grades, this.study);
    if (ref?.index === undefined || grader === undefined) return;
    const key = assignmentKey(ref.index, grader);
    if (this.assignments.has(key)) return this.add(at, "a grader has one assignment per set");
    this.assignments.add(key);
    if (a.kind === "ADJUDICATOR") this.adjudications.add(key);
    if (a.status !== "CANCELLED") this.assignedSets.add(ref.index);
    if (this.total === before && !this.failed) this.sink.assignment(key, ref.index, grader, a);
  }

  private escalation(at: string, v: unknown): void {
    const e = this.parse(ArchiveEscalation, v, at);
    if (!e) return;
    const ref = this.setOf(at, e.item, e.model);
    if (ref && ref.index === undefined) this.add(at, `no set for item ${e.item} and model ${e.model}`);
    e.dimensions.forEach((d, j) => {
      for (const g of Object.keys(d.values)) if (!this.graderIndex.has(g)) this.add(`${at}.dimensions[${j}].values`, `no grader ${g} in graders`);
    });
    if (ref?.index === undefined) return;
    if (this.escalated.has(ref.index)) return this.add(at, "an escalation of this set appears twice");
    this.escalated.add(ref.index);
    let adjudicatorKey: number | null = null;
    if (e.adjudicator !== null) {
      const grader = this.graderIndex.get(e.adjudicator);
      adjudicatorKey = grader === undefined ? -1 : assignmentKey(ref.index, grader);
      if (!this.adjudications.has(adjudicatorKey)) return this.add(`${at}.adjudicator`, `grader ${e.adjudicator} has no ADJUDICATOR assignment on this set`);
    }
    if (!this.failed) this.sink.escalation(ref.index, adjudicatorKey, e);
  }

  private screen(at: string, v: unknown): void {
    const x = this.parse(ArchiveScreen, v, at);
    if (!x) return;
    if (this.screens.has(x.id)) return this.add(`${at}.id`, "this screen id appears twice");
    const index = this.screens.size;
    this.screens.set(x.id, index);
    this.screenRules.push(x.rules.length);
    if (!this.failed) this.sink.screen(index, x);
  }

  private screenAnswer(key: "screenHits" | "screenVerdicts", at: string, v: unknown): void {
    const x = key === "screenHits" ? this.parse(ArchiveScreenHit, v, at) : this.parse(ArchiveScreenVerdict, v, at);
    if (!x) return;
    const before = this.total;
    const screen = this.screens.get(x.screen);
    if (screen === undefined) this.add(`${at}.screen`, `no screen ${x.screen} in screens`);
    const ref = this.setOf(at, x.item, x.model);
    if (ref && ref.index === undefined) this.add(at, `no set for item ${x.item} and model ${x.model}`);
    if (ref?.index !== undefined && !this.setReps.get(ref.index)?.has(x.repetition)) this.add(`${at}.repetition`, `the set has no answer ${x.repetition}`);
    if ("rule" in x && screen !== undefined && x.rule >= this.screenRules[screen]) this.add(`${at}.rule`, `screen ${x.screen} has ${this.screenRules[screen]} rules`);
    if (screen === undefined || ref?.index === undefined || this.total !== before) return;
    const k = `${key}/${screen}/${ref.index}/${x.repetition}${"rule" in x ? `/${x.rule}` : ""}`;
    if (this.screened.has(k)) return this.add(at, key === "screenHits" ? "this hit appears twice" : "this verdict appears twice");
    this.screened.add(k);
    if (this.failed) return;
    if ("rule" in x) this.sink.screenHit(screen, ref.index, x);
    else this.sink.screenVerdict(screen, ref.index, x);
  }
}
