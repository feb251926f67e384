"use client";

import { ArrowLeft, Check, CloudOff, Keyboard, LoaderCircle, Lock, Send } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { saveStatusText, type SaveStatus } from "./autosave-logic";
import { ProgressBar } from "./progress-bar";

export function SaveIndicator({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  const text = saveStatusText(status);
  const icon =
    status.kind === "saving" || status.kind === "pending" ? (
      <LoaderCircle aria-hidden className="size-3.5 animate-spin" />
    ) : status.kind === "saved" ? (
      <Check aria-hidden className="size-3.5" />
    ) : status.kind === "error" ? (
      <CloudOff aria-hidden className="size-3.5" />
    ) : status.kind === "submitted" ? (
      <Check aria-hidden className="size-3.5" />
    ) : status.kind === "readonly" ? (
      <Lock aria-hidden className="size-3.5" />
    ) : null;
  return (
    <div className="flex items-center gap-2">
      <p
        role="status"
        aria-live="polite"
        data-testid="save-status"
        title={status.kind === "error" ? status.message : undefined}
        className={cn(
          "inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-1 text-xs font-medium",
          (status.kind === "saved" || status.kind === "submitted") && "bg-green-50 text-green-800",
          status.kind === "error" && "bg-red-50 text-destructive",
          status.kind === "unsaved" && "bg-amber-50 text-amber-900",
          (status.kind === "saving" || status.kind === "pending" || status.kind === "idle" || status.kind === "readonly") && "bg-muted text-muted-foreground",
        )}
      >
        {icon}
        {text}
        {status.kind === "error" ? <span className="sr-only">: {status.message}</span> : null}
      </p>
      {status.kind === "error" && status.retrying ? (
        <button type="button" onClick={onRetry} className="text-xs font-medium text-primary underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring">
          Retry now
        </button>
      ) : null}
    </div>
  );
}

export function GradingToolbar({
  position,
  total,
  done,
  scored,
  toScore,
  onNextMissing,
  question,
  status,
  onRetry,
  onShortcuts,
  onSubmit,
  submitLabel,
  submitting,
  readOnly,
  pending = false,
}: {
  position: number;
  total: number;
  done: number;
  scored: number;
  toScore: number;
  onNextMissing: () => void;
  /** The question, kept in view while the answers scroll by (the full text is in the question panel). */
  question: string;
  status: SaveStatus;
  onRetry: () => void;
  onShortcuts: () => void;
  onSubmit: () => void;
  submitLabel: string;
  submitting: boolean;
  readOnly: boolean;
  /**
   * The frame of a full page load, before the browser has drawn the form: the
   * controls keep their place (nothing moves when the form appears) but are
   * hidden, inert and disabled, as they would do nothing yet.
   */
  pending?: boolean;
}) {
  const complete = scored === toScore;
  return (
    <div className="sticky top-0 z-30 -mx-4 -mt-4 mb-6 border-b border-border bg-background px-4 py-2.5 shadow-[0_1px_3px_rgb(15_23_42/0.06)] md:-mx-8 md:-mt-8 md:px-8">
      <div className="flex flex-wrap items-center gap-x-5 gap-y-2">
        <Link
          href="/queue"
          className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Queue
        </Link>
        <div className="flex min-w-44 flex-col gap-1">
          <p className="text-xs text-muted-foreground">
            <span className="font-semibold text-foreground">
              Set {position} of {total}
            </span>{" "}
            · {done} submitted
          </p>
          <ProgressBar value={done} max={total} label="Answer sets submitted" className="h-1.5 w-44" />
        </div>
        <div className="flex items-center gap-2">
          <p className="text-xs tabular-nums text-muted-foreground" data-testid="completeness">
            <span className={cn("font-semibold", complete ? "text-success" : "text-foreground")}>
              {scored} / {toScore}
            </span>{" "}
            scores
          </p>
          {!complete && !readOnly ? (
            <button
              type="button"
              onClick={onNextMissing}
              disabled={pending}
              inert={pending}
              className={cn(
                "rounded text-xs font-medium text-primary underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring",
                pending && "invisible",
              )}
            >
              Next missing
            </button>
          ) : null}
        </div>
        <div className={cn("ml-auto flex items-center gap-3", pending && "invisible")} inert={pending}>
          <SaveIndicator status={status} onRetry={onRetry} />
          <Button type="button" variant="ghost" size="sm" onClick={onShortcuts} aria-keyshortcuts="?" disabled={pending}>
            <Keyboard aria-hidden className="size-4" />
            {/* sr-only on a phone: the button keeps its name when the "?" hint is hidden on touch screens. */}
            <span className="sr-only sm:not-sr-only">Shortcuts</span>
            <kbd className="rounded border border-border bg-muted px-1 font-mono text-[0.7rem] text-muted-foreground pointer-coarse:hidden" data-testid="press-hint">
              ?
            </kbd>
          </Button>
          {readOnly ? null : (
            <Button type="button" size="sm" onClick={onSubmit} disabled={submitting || pending} aria-keyshortcuts="Control+Enter Meta+Enter">
              {submitting ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Send aria-hidden className="size-4" />}
              {submitLabel}
            </Button>
          )}
        </div>
      </div>
      <p data-testid="sticky-question" className="mt-1.5 line-clamp-2 text-sm text-foreground md:line-clamp-1" title={question}>
        <span className="mr-1.5 text-xs font-semibold uppercase tracking-wider text-muted-foreground">Question</span>
        {question}
      </p>
    </div>
  );
}
