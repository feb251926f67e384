import Link from "next/link";

export function CenteredMessage({ code, title, children, action }: { code?: string; title: string; children?: React.ReactNode; action?: React.ReactNode }) {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-3 p-8 text-center">
      {code ? <p className="text-sm font-semibold text-primary">{code}</p> : null}
      <h1 className="text-2xl font-semibold">{title}</h1>
      {children ? <div className="text-muted-foreground">{children}</div> : null}
      {action ?? (
        <Link href="/" className="text-primary underline-offset-4 hover:underline">
          Back to my start page
        </Link>
      )}
    </main>
  );
}
