import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { QuestionBody } from "@/components/grading/question-body";
import { splitQuestion } from "@/lib/grading/question-parts";
import { questionPreview } from "@/lib/queue/preview";

/** Issue 31, item 8: the question is read like the answers, and the queue shows the part that tells questions apart. */
const EHR = Array.from({ length: 13 }, (_, i) => `Line ${i + 1} of the record: vitals, labs and medications noted.`).join("\n");
const LONG = `# Patient message\n${EHR}\n\n**Should I stop my chemotherapy before the trip?**`;

describe("the question on the grading page", () => {
  it("keeps its line breaks, renders Markdown at body size, never as a heading, and escapes raw HTML", () => {
    const html = renderToStaticMarkup(createElement(QuestionBody, { question: "BP 150/90\nHR 88\n\n- **metformin** 500 mg\n- <script>alert(1)</script>" }));
    expect(html).toContain('class="answer-prose question-prose"');
    expect(html).toContain("<p>BP 150/90\nHR 88</p>");
    expect(html).toContain("<strong>metformin</strong>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toMatch(/<h[1-6]\b/);
  });

  it("folds a long context away (open at first) and keeps the last paragraph, the question, below it", () => {
    const html = renderToStaticMarkup(createElement(QuestionBody, { question: LONG }));
    expect(html).toMatch(/<details open=""[^>]*data-testid="question-context"/);
    expect(html).toMatch(/Context <span[^>]*>\(133 words\)<\/span>/);
    expect(html.indexOf("Line 13 of the record")).toBeLessThan(html.indexOf("Should I stop my chemotherapy"));
    expect(html.slice(html.indexOf("</details>"))).toContain("<strong>Should I stop my chemotherapy before the trip?</strong>");
    expect(html).toContain('class="font-semibold">Patient message</p>');
  });

  it("shows a short question, or one with a fenced code block, whole", () => {
    expect(splitQuestion("Some context.\n\nThe question?")).toBeNull();
    expect(splitQuestion(`${EHR}\n\n\`\`\`\ncode\n\n\`\`\`\n\nQ?`)).toBeNull();
    expect(splitQuestion(LONG)?.ask).toBe("**Should I stop my chemotherapy before the trip?**");
  });
});

describe("the queue's preview of a question", () => {
  it("is the lead's preview when given, else the last paragraph in plain text, bounded", () => {
    expect(questionPreview(LONG, "Chemotherapy before a trip")).toBe("Chemotherapy before a trip");
    expect(questionPreview(LONG, null)).toBe("Should I stop my chemotherapy before the trip?");
    expect(questionPreview(LONG, "  ")).toBe("Should I stop my chemotherapy before the trip?");
    expect(questionPreview("One line\nand another", null)).toBe("One line and another");
    expect(questionPreview("x".repeat(1000), null)).toHaveLength(300);
  });
});
