import type { Metadata } from "next";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { LEAD_ROLES, requireUser } from "@/lib/server/page-guard";
import { OperationView, operationAnchor, operationsByTag, SchemaView, type OpenApiDoc } from "./openapi-view";

export const metadata: Metadata = { title: "API documentation" };

/** The /api/v1 reference, rendered from the same OpenAPI document the API serves. */
export default async function ApiDocsPage() {
  await requireUser(LEAD_ROLES);
  const doc = buildOpenApiDocument() as unknown as OpenApiDoc;
  const groups = operationsByTag(doc);
  const schemas = Object.entries(doc.components?.schemas ?? {});
  return (
    <section className="flex flex-col gap-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold">
          {doc.info.title} <span className="text-base font-normal text-muted-foreground">v{doc.info.version}</span>
        </h1>
        {doc.info.description ? <p className="max-w-3xl text-sm text-muted-foreground">{doc.info.description}</p> : null}
        <p className="text-sm">
          Errors are JSON <code className="font-mono">{"{error, details?}"}</code>. The machine-readable document is at{" "}
          <a href="/api/v1/openapi.json" className="font-mono text-primary underline-offset-4 hover:underline">
            /api/v1/openapi.json
          </a>
          .
        </p>
      </header>

      <nav aria-label="Endpoints" className="rounded-lg border border-border p-4">
        <h2 className="mb-2 text-sm font-semibold">Endpoints</h2>
        <ul className="grid gap-1 text-sm">
          {[...groups.values()].flat().map(({ method, path, op }) => (
            <li key={`${method} ${path}`}>
              <a href={`#${operationAnchor(method, path)}`} className="hover:underline">
                <span className="inline-block w-16 font-mono text-xs font-bold uppercase">{method}</span>
                <span className="font-mono">{path}</span>
                {op.summary ? <span className="text-muted-foreground"> — {op.summary}</span> : null}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      {[...groups.entries()].map(([tag, ops]) => (
        <section key={tag} className="flex flex-col gap-4" aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`} className="text-xl font-semibold">
            {tag}
          </h2>
          {ops.map(({ method, path, op }) => (
            <OperationView key={`${method} ${path}`} method={method} path={path} op={op} />
          ))}
        </section>
      ))}

      <section className="flex flex-col gap-4" aria-labelledby="schemas">
        <h2 id="schemas" className="text-xl font-semibold">
          Schemas
        </h2>
        {schemas.map(([name, schema]) => (
          <article key={name} id={`schema-${name}`} className="flex scroll-mt-4 flex-col gap-2 rounded-lg border border-border p-4">
            <h3 className="font-mono text-sm font-semibold">{name}</h3>
            <SchemaView schema={schema} />
          </article>
        ))}
      </section>
    </section>
  );
}
