import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/grading/markdown";

const render = (md: string) => renderToStaticMarkup(createElement(Markdown, null, md));

describe("answers as Markdown", () => {
  it("renders GFM: emphasis, lists, tables", () => {
    const html = render("**Urgent**: go now\n\n1. first\n2. second\n\n| drug | dose |\n|---|---|\n| x | 5 mg |");
    expect(html).toContain("<strong>Urgent</strong>");
    expect(html).toMatch(/<ol[ >]/);
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

  it("drops addresses with a script or data scheme however they are spelt, in links, images, autolinks and references", () => {
    const html = render(
      "[a](JaVaScRiPt:alert(1)) [b](jav&#x61;script:alert(2)) [c](data:text/html;base64,PHNjcmlwdD4=) ![i](javascript:alert(3)) " +
        "<javascript:alert(4)> [v](vbscript:msgbox) [ok](https://example.org/x?y=1)\n\n[r]: javascript:alert(5)\n\n[ref][r]",
    );
    expect(html).not.toMatch(/(href|src)="[^"]*(script|data):/i);
    expect(html).toContain('<a href="https://example.org/x?y=1">ok</a>');
    expect(html).toContain(">ref</a>");
  });

  it("keeps clinical text with angle brackets and inline tags literal, also inside tables", () => {
    const html = render("| value | note |\n|---|---|\n| INR < 2.0 | line<br>break |\n\ntext <b onmouseover=alert(1)>bold</b> & more\n\n<iframe src=x></iframe>");
    expect(html).toContain("<td>INR &lt; 2.0</td>");
    expect(html).toContain("<td>line&lt;br&gt;break</td>");
    expect(html).toContain("text &lt;b onmouseover=alert(1)&gt;bold&lt;/b&gt; &amp; more");
    expect(html).not.toMatch(/<(b|iframe|br)[ >/]/i);
  });
});
