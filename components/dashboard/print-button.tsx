"use client";

import { Printer } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * The whole dashboard as a PDF: the browser's own print (Save as PDF), with a
 * print stylesheet that leaves out the navigation, the filters and the
 * download buttons and keeps each chart on one page. The charts are drawn in
 * the browser (Recharts), so the browser is also what draws them best on paper;
 * a server-side PDF would need a headless browser of its own.
 */
export function PrintDashboardButton() {
  return (
    <Button type="button" variant="outline" size="sm" className="print:hidden" onClick={() => window.print()}>
      <Printer aria-hidden className="size-4" />
      Print or save as PDF
    </Button>
  );
}
