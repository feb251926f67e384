export default function Loading() {
  return (
    <div role="status" aria-live="polite" className="p-8 text-sm text-muted-foreground">
      Loading…
    </div>
  );
}
