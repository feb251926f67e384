"use client";

import { Download } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DATASET_CATALOG, exportHref, type ExportLinkOptions } from "@/lib/exports/catalog";

/**
 * One download link per dataset and format. Plain links (the browser streams
 * the file to disk as the server sends it), with the options in the query.
 */
export function ExportPanel({ studyId, slug, today }: { studyId: string; slug: string; today: string }) {
  const [options, setOptions] = useState<ExportLinkOptions>({ bom: false, identities: false, audit: false });
  const ids = { bom: useId(), identities: useId(), audit: useId() };
  const toggle = (key: keyof ExportLinkOptions) => (e: React.ChangeEvent<HTMLInputElement>) => setOptions((o) => ({ ...o, [key]: e.target.checked }));

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Options</CardTitle>
          <CardDescription>
            Files are named {slug}_&lt;dataset&gt;_{today}.csv (or .json). CSV files are UTF-8 with RFC 4180 quoting and LF line endings (not the RFC&apos;s CRLF; every spreadsheet and CSV reader accepts them); times are ISO 8601 in UTC; text that a
            spreadsheet would run as a formula (its first non-space character = + - @, a fullwidth one, or a quote before one) gets a leading apostrophe; computed means
            and statistics have 4 decimals.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <fieldset className="flex flex-col gap-3 text-sm">
            <legend className="sr-only">Export options</legend>
            <div className="flex items-start gap-2">
              <input id={ids.bom} type="checkbox" className="mt-0.5 size-4" checked={options.bom} onChange={toggle("bom")} />
              <label htmlFor={ids.bom}>
                <span className="font-medium">Byte-order mark for Excel</span>
                <span className="block text-muted-foreground">Lets Excel open accented text correctly. Leave off for R, Python and other tools.</span>
              </label>
            </div>
            <div className="flex items-start gap-2">
              <input id={ids.identities} type="checkbox" className="mt-0.5 size-4" checked={options.identities} onChange={toggle("identities")} />
              <label htmlFor={ids.identities}>
                <span className="font-medium">Include grader names and emails</span>
                <span className="block text-muted-foreground">
                  Off: graders appear only as their stable pseudonym in this study (e.g. Grader 7F3A). Share identified files only as your protocol allows.
                </span>
              </label>
            </div>
            <div className="flex items-start gap-2">
              <input id={ids.audit} type="checkbox" className="mt-0.5 size-4" checked={options.audit} onChange={toggle("audit")} />
              <label htmlFor={ids.audit}>
                <span className="font-medium">Add the audit trail to the study archive</span>
                <span className="block text-muted-foreground">For the record; an import does not replay it.</span>
              </label>
            </div>
          </fieldset>
        </CardContent>
      </Card>

      <ul className="grid gap-4 md:grid-cols-2" aria-label="Datasets">
        {DATASET_CATALOG.map((d) => (
          <li key={d.dataset}>
            <Card className="h-full">
              <CardHeader>
                <CardTitle className="text-base">{d.title}</CardTitle>
                <CardDescription>{d.description}</CardDescription>
              </CardHeader>
              <CardContent className="flex flex-wrap gap-2">
                {d.formats.map((format) => (
                  <Button key={format} asChild variant="outline" size="sm">
                    <a href={exportHref(studyId, d.dataset, format, options)} download data-testid={`export-${d.dataset}-${format}`}>
                      <Download aria-hidden className="size-4" />
                      {`${d.dataset} ${format.toUpperCase()}`}
                    </a>
                  </Button>
                ))}
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
