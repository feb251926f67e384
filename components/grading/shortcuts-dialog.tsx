"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { RubricDocument } from "@/lib/rubrics/document";
import { shortcutsFor } from "./keyboard-logic";

/** The keyboard shortcuts for the study's rubrics, opened with "?" or the toolbar button (Radix Dialog: focus trapped, Esc closes). */
export function ShortcutsDialog({ open, onOpenChange, rubrics }: { open: boolean; onOpenChange: (open: boolean) => void; rubrics: readonly RubricDocument[] }) {
  const shortcuts = shortcutsFor(rubrics);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/40 backdrop-blur-[1px]" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[min(36rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-border bg-background p-6 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-semibold">Keyboard shortcuts</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-muted-foreground">
                The whole form works without a mouse. Digits act on the dimension that has focus, never while you type a comment.
              </Dialog.Description>
            </div>
            <Dialog.Close className="rounded-md p-1 text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring">
              <X aria-hidden className="size-4" />
              <span className="sr-only">Close</span>
            </Dialog.Close>
          </div>
          <table className="mt-4 w-full text-sm">
            <caption className="sr-only">Keys and what they do</caption>
            <thead className="sr-only">
              <tr>
                <th scope="col">Keys</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {shortcuts.map((s) => (
                <tr key={s.description} className="border-t border-border first:border-t-0">
                  <td className="whitespace-nowrap py-2 pr-4 align-top">
                    {s.keys.map((combo, i) => (
                      <span key={i} className="inline-flex items-center gap-1">
                        {i > 0 ? <span className="mx-1 text-xs text-muted-foreground">{combo.length > 1 || s.keys[i - 1].length > 1 ? "or" : "/"}</span> : null}
                        {combo.map((k, j) => (
                          <span key={k} className="inline-flex items-center gap-1">
                            {j > 0 ? <span className="text-xs text-muted-foreground">+</span> : null}
                            <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs shadow-[0_1px_0_var(--color-border)]">{k}</kbd>
                          </span>
                        ))}
                      </span>
                    ))}
                  </td>
                  <td className="py-2 text-muted-foreground">{s.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
