import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/grading/markdown";

const render = (md: string) => renderToStaticMarkup(createElement(Markdown, null, md));

describe("answers as Markdown", () => {
  it("renders GFM: emphasis, lists, tables", () => {
    const html = render("**Urgent**: go now\n\n1. first\n2. second\n\n| drug | dose |\n|---|---|\n| x | 5 mg |");
    expect(html).toContain("<strong>Urgent</strong>");
    expect(html).toContain("<ol>");
    expect(html).toContain("<table>");
    expect(html).toContain("<td>5 mg</td>");
  });

  it("shows raw HTML as text and never emits a script, an event handler or a javascript: URL", () => {
    const html = render('Hi <script>alert(1)</script> <img src=x onerror="alert(2)">\n\n<div onclick="x()">block</div>\n\n[link](javascript:alert(3))');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<div onclick/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<p>&lt;div onclick=&quot;x()&quot;&gt;block&lt;/div&gt;</p>");
  });
});
