import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmbeddingRunPanel } from "@/components/embeddings/embedding-run-panel";
import type { EmbeddingRunView } from "@/lib/embeddings/contract";

const RUN: EmbeddingRunView = {
  id: "00000000-0000-4000-8000-000000000001",
  status: "FAILED",
  endpoint: "Local vLLM",
  model: "nomic-embed-text",
  answers: 120,
  embedded: 64,
  requests: 3,
  dimensions: 768,
  error: "HTTP 401 (the endpoint refused the API key: an admin checks it): {}",
  createdAt: "2026-12-05T01:00:00.000Z",
  startedAt: "2026-12-05T01:00:01.000Z",
  finishedAt: "2026-12-05T01:00:02.000Z",
};
const render = (props: Parameters<typeof EmbeddingRunPanel>[0]) => renderToStaticMarkup(createElement(EmbeddingRunPanel, props));

describe("the embedding similarity panel", () => {
  it("says how many answers have one, the run's state and its error, and that nothing of a failed run was stored", () => {
    const html = render({ studyId: "s", endpoints: [{ id: "e", name: "Local vLLM", embeddingModel: "nomic-embed-text" }], latest: RUN, coverage: { answersWithReference: 120, withSimilarity: 0, model: null, endpoint: null } });
    expect(html).toContain("0 of 120 answers with a reference answer have an embedding similarity.");
    expect(html).toContain("Failed: 64 of 120 answers embedded with nomic-embed-text via Local vLLM (768 dimensions), 3 requests. Nothing of this run was stored.");
    expect(html).toContain("refused the API key");
    expect(html).toContain("Compute embedding similarity");
    expect(html).toContain('value="nomic-embed-text"');
  });

  it("a finished run with answers changed since asks for a re-run; no endpoint or no reference says what is missing", () => {
    const done = { ...RUN, status: "DONE" as const, embedded: 120, error: null };
    expect(render({ studyId: "s", endpoints: [], latest: done, coverage: { answersWithReference: 120, withSimilarity: 100, model: "nomic-embed-text", endpoint: "Local vLLM" } })).toMatch(
      /100 of 120 .* \(nomic-embed-text via Local vLLM\)\. Answers or references changed since the last run: run it again[\s\S]*No endpoint is offered for embeddings/,
    );
    expect(render({ studyId: "s", endpoints: [{ id: "e", name: "E", embeddingModel: "m" }], latest: null, coverage: { answersWithReference: 0, withSimilarity: 0, model: null, endpoint: null } })).toContain("import reference answers first");
  });

  it("while a run goes on, a progress bar and no second start", () => {
    const html = render({ studyId: "s", endpoints: [{ id: "e", name: "E", embeddingModel: "m" }], latest: { ...RUN, status: "RUNNING", error: null }, coverage: { answersWithReference: 120, withSimilarity: 0, model: null, endpoint: null } });
    expect(html).toContain('role="progressbar"');
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Compute embedding similarity/);
  });
});
