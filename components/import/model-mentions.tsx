import type { ImportResult } from "@/lib/import/service";

const n = (x: number) => x.toLocaleString("en");

/** Answers that name a model would unblind graders: how many, per model, with examples, before the lead commits. */
export function ModelMentions({ result }: { result: ImportResult }) {
  const { answers, byModel, terms } = result.modelMentions;
  if (answers === 0) return null;
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="model-mentions">
      <p className="font-medium">
        {n(answers)} {answers === 1 ? "answer names" : "answers name"} a model, its version or one of your words: graders who read
        {answers === 1 ? " it" : " them"} would know which model wrote {answers === 1 ? "it" : "them"}.
      </p>
      <p className="mt-1 text-xs">Looked for (whole words, any case): {terms.join(", ")}.</p>
      <ul className="mt-2 flex flex-col gap-2">
        {byModel.map((m) => (
          <li key={m.model}>
            <span className="font-medium">{m.model}</span>: {n(m.answers)} {m.answers === 1 ? "answer" : "answers"}
            <ul className="mt-1 list-disc pl-5 text-xs">
              {m.examples.map((e) => (
                <li key={`${e.itemId}\u0000${e.repetition}`}>
                  <span className="font-mono">{e.itemId}</span> answer {e.repetition}, “{e.found}”: {e.excerpt}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs">Edit those answers in the file (or redact them after the import) before graders start.</p>
    </div>
  );
}
