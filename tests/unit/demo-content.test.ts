import { describe, it, expect } from "vitest";
import { DEMO_ITEMS, DEMO_MODELS, DEMO_STUDY, type DemoSpecialty } from "@/lib/demo/content";

const SPECIALTIES: DemoSpecialty[] = ["Ophthalmology", "Medication", "Anesthesia"];
const VENDOR_WORDS = ["GPT", "OpenAI", "Claude", "Anthropic", "Llama", "Meta", "Gemini", "Google"];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whole-word, case-insensitive match (word boundaries also around names with spaces or dots). */
function wholeWord(term: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(term)}(?![A-Za-z0-9])`, "i");
}

const allAnswers = DEMO_ITEMS.flatMap((item) =>
  Object.entries(item.responses).flatMap(([modelKey, reps]) =>
    reps.map((text, i) => ({ id: `${item.externalId}/${modelKey}#${i + 1}`, text })),
  ),
);

describe("demo study content", () => {
  it("has a study name and description", () => {
    expect(DEMO_STUDY.name.trim().length).toBeGreaterThan(0);
    expect(DEMO_STUDY.description.trim().length).toBeGreaterThan(0);
  });

  it("has exactly 3 models with unique keys and the configured sampling parameters", () => {
    expect(DEMO_MODELS).toHaveLength(3);
    expect(new Set(DEMO_MODELS.map((m) => m.key)).size).toBe(3);
    for (const m of DEMO_MODELS) {
      expect(m.name.trim()).not.toBe("");
      expect(m.version.trim()).not.toBe("");
      expect(m.temperature).toBe(0.7);
      expect(m.topP).toBe(1);
    }
  });

  it("has 15 items, 5 per specialty, with unique external ids", () => {
    expect(DEMO_ITEMS).toHaveLength(15);
    for (const s of SPECIALTIES) {
      expect(DEMO_ITEMS.filter((i) => i.specialty === s)).toHaveLength(5);
    }
    expect(new Set(DEMO_ITEMS.map((i) => i.externalId)).size).toBe(15);
    for (const item of DEMO_ITEMS) {
      expect(item.externalId).toMatch(/^(OPH|MED|ANE)-\d{2}$/);
      const prefix = { Ophthalmology: "OPH", Medication: "MED", Anesthesia: "ANE" }[item.specialty];
      expect(item.externalId.startsWith(prefix)).toBe(true);
    }
  });

  it("has a question and a 3-6 sentence reference answer for each item", () => {
    for (const item of DEMO_ITEMS) {
      expect(item.question.trim().length).toBeGreaterThan(20);
      const sentences = item.referenceAnswer.split(/(?<=[.!?])\s+(?=[A-Z])/);
      expect(sentences.length, item.externalId).toBeGreaterThanOrEqual(3);
      expect(sentences.length, item.externalId).toBeLessThanOrEqual(6);
    }
  });

  it("has 3 non-empty, distinct repetitions for every model on every item, and no other models", () => {
    const keys = DEMO_MODELS.map((m) => m.key).sort();
    for (const item of DEMO_ITEMS) {
      expect(Object.keys(item.responses).sort(), item.externalId).toEqual(keys);
      for (const key of keys) {
        const reps = item.responses[key];
        expect(reps, `${item.externalId}/${key}`).toHaveLength(3);
        for (const r of reps) expect(r.trim().length).toBeGreaterThan(0);
        expect(new Set(reps.map((r) => r.trim())).size, `${item.externalId}/${key}`).toBe(3);
      }
    }
    expect(allAnswers).toHaveLength(135);
  });

  it("keeps every answer between 40 and 1500 characters and 60-180 words", () => {
    for (const a of allAnswers) {
      expect(a.text.length, a.id).toBeGreaterThanOrEqual(40);
      expect(a.text.length, a.id).toBeLessThanOrEqual(1500);
      const words = a.text.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
      expect(words, a.id).toBeGreaterThanOrEqual(60);
      expect(words, a.id).toBeLessThanOrEqual(180);
    }
  });

  it("never reveals a model's name, key or vendor in an answer (graders are blinded)", () => {
    const terms = [
      ...VENDOR_WORDS,
      ...DEMO_MODELS.flatMap((m) => [m.key, m.name, m.version]),
    ];
    for (const a of allAnswers) {
      for (const t of terms) {
        expect(wholeWord(t).test(a.text), `${a.id} mentions "${t}"`).toBe(false);
      }
      expect(a.text).not.toMatch(/^\s*as an ai\b/i);
      expect(a.text).not.toMatch(/\blanguage model\b/i);
    }
  });

  it("includes Markdown formatting and literal angle-bracket text to exercise sanitised rendering", () => {
    const texts = allAnswers.map((a) => a.text);
    expect(texts.some((t) => /^\s*[-*] /m.test(t))).toBe(true); // bullet list
    expect(texts.some((t) => /^\s*\d+\. /m.test(t))).toBe(true); // numbered list
    expect(texts.some((t) => /\*\*[^*]+\*\*/.test(t))).toBe(true); // bold
    expect(texts.some((t) => /^#{2,3} /m.test(t))).toBe(true); // heading
    expect(texts.some((t) => /`[^`]*<[^`]*`/.test(t))).toBe(true); // inline code with "<"
    expect(texts.some((t) => /<[a-z]+\s*\/?>/i.test(t))).toBe(true); // literal HTML-looking tag
  });
});
