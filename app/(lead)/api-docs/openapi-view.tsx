import { Badge } from "@/components/ui/badge";

/**
 * A small renderer for our own OpenAPI 3.1 document: operations with their
 * parameters, bodies and responses, and the component schemas, linked by
 * anchor. No external viewer or CDN (the CSP would refuse one anyway).
 */

export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface MediaContent {
  schema?: Schema;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaContent> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaContent> }>;
}
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, { type?: string; scheme?: string; description?: string }> };
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const METHOD_STYLE: Record<string, string> = {
  get: "bg-blue-100 text-blue-900",
  post: "bg-green-100 text-green-900",
  put: "bg-amber-100 text-amber-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-red-100 text-red-900",
};

const refName = (ref: string) => ref.split("/").pop() ?? ref;
export const operationAnchor = (method: string, path: string) => `op-${method}-${path.replace(/[^a-zA-Z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
const show = (v: unknown) => (typeof v === "string" ? `"${v}"` : JSON.stringify(v));

/** A one-line type: `string (uuid)`, `array of Item`, `"A" | "B"`, a link for a reference. */
function TypeLabel({ schema }: { schema: Schema }) {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return (
      <a href={`#schema-${name}`} className="font-mono text-primary underline-offset-4 hover:underline">
        {name}
      </a>
    );
  }
  if (schema.enum) return <code className="font-mono">{schema.enum.map(show).join(" | ")}</code>;
  if (schema.const !== undefined) return <code className="font-mono">{show(schema.const)}</code>;
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants) {
    return (
      <span>
        {variants.map((v, i) => (
          <span key={i}>
            {i > 0 ? (schema.allOf ? " and " : " or ") : null}
            <TypeLabel schema={v} />
          </span>
        ))}
      </span>
    );
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes("array") && schema.items) {
    return (
      <span>
        array of <TypeLabel schema={schema.items} />
        {types.includes("null") ? " or null" : ""}
      </span>
    );
  }
  const base = types.length ? types.join(" or ") : "any";
  return (
    <code className="font-mono">
      {base}
      {schema.format ? ` (${schema.format})` : ""}
    </code>
  );
}

function constraints(schema: Schema): string[] {
  const out: string[] = [];
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.minItems !== undefined) out.push(`min ${schema.minItems} items`);
  if (schema.maxItems !== undefined) out.push(`max ${schema.maxItems} items`);
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) out.push(`default ${show(schema.default)}`);
  if (schema.example !== undefined) out.push(`e.g. ${show(schema.example)}`);
  return out;
}

const nestedObject = (s: Schema): Schema | null => {
  if (s.properties) return s;
  if (s.items?.properties) return s.items;
  return null;
};

/** An object's properties as a table; nested objects are shown in place, references link to their schema. */
export function SchemaView({ schema, depth = 0 }: { schema: Schema; depth?: number }) {
  if (!schema.properties) {
    return (
      <p className="text-sm">
        <TypeLabel schema={schema} />
        {constraints(schema).length ? <span className="text-muted-foreground"> · {constraints(schema).join(", ")}</span> : null}
        {schema.description ? <span className="text-muted-foreground"> — {schema.description}</span> : null}
      </p>
    );
  }
  const required = new Set(schema.required ?? []);
  return (
    <div className="flex flex-col gap-1">
      {schema.description && depth === 0 ? <p className="text-sm text-muted-foreground">{schema.description}</p> : null}
      <table className="w-full text-sm">
        <thead className="sr-only">
          <tr>
            <th>Field</th>
            <th>Type and rules</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(schema.properties).map(([name, prop]) => {
            const nested = depth < 4 ? nestedObject(prop) : null;
            return (
              <tr key={name} className="border-t border-border align-top">
                <td className="w-48 py-1.5 pr-3 font-mono text-xs">
                  {name}
                  {required.has(name) ? (
                    <span className="ml-1 text-destructive" title="required">
                      *
                    </span>
                  ) : null}
                </td>
                <td className="py-1.5">
                  <div>
                    <TypeLabel schema={prop} />
                    {constraints(prop).length ? <span className="text-muted-foreground"> · {constraints(prop).join(", ")}</span> : null}
                  </div>
                  {prop.description ? <div className="text-muted-foreground">{prop.description}</div> : null}
                  {nested ? (
                    <div className="mt-1 border-l-2 border-border pl-3">
                      <SchemaView schema={{ ...nested, description: undefined }} depth={depth + 1} />
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {schema.additionalProperties === false ? <p className="text-xs text-muted-foreground">No other fields are accepted.</p> : null}
    </div>
  );
}

function Content({ content }: { content?: Record<string, MediaContent> }) {
  if (!content) return null;
  return (
    <>
      {Object.entries(content).map(([type, media]) => (
        <div key={type} className="flex flex-col gap-1">
          <p className="text-xs text-muted-foreground">{type}</p>
          {media.schema ? <SchemaView schema={media.schema} /> : null}
        </div>
      ))}
    </>
  );
}

export function OperationView({ method, path, op }: { method: string; path: string; op: Operation }) {
  const params = op.parameters ?? [];
  return (
    <article id={operationAnchor(method, path)} className="flex scroll-mt-4 flex-col gap-3 rounded-lg border border-border p-4">
      <h3 className="flex flex-wrap items-center gap-2 font-mono text-sm">
        <span className={`rounded px-2 py-0.5 text-xs font-bold uppercase ${METHOD_STYLE[method] ?? ""}`}>{method}</span>
        <span className="font-semibold">{path}</span>
      </h3>
      {op.summary ? <p className="font-medium">{op.summary}</p> : null}
      {op.description ? <p className="text-sm text-muted-foreground">{op.description}</p> : null}

      {params.length ? (
        <section className="flex flex-col gap-1">
          <h4 className="text-sm font-semibold">Parameters</h4>
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs text-muted-foreground">
                <th className="py-1 pr-3 font-medium">Name</th>
                <th className="py-1 pr-3 font-medium">In</th>
                <th className="py-1 font-medium">Type and rules</th>
              </tr>
            </thead>
            <tbody>
              {params.map((p) => (
                <tr key={`${p.in}-${p.name}`} className="border-t border-border align-top">
                  <td className="py-1.5 pr-3 font-mono text-xs">
                    {p.name}
                    {p.required ? (
                      <span className="ml-1 text-destructive" title="required">
                        *
                      </span>
                    ) : null}
                  </td>
                  <td className="py-1.5 pr-3 text-xs">{p.in}</td>
                  <td className="py-1.5">
                    {p.schema ? <TypeLabel schema={p.schema} /> : null}
                    {p.schema && constraints(p.schema).length ? <span className="text-muted-foreground"> · {constraints(p.schema).join(", ")}</span> : null}
                    {p.description ? <div className="text-muted-foreground">{p.description}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}

      {op.requestBody ? (
        <section className="flex flex-col gap-1">
          <h4 className="text-sm font-semibold">Request body{op.requestBody.required ? " (required)" : ""}</h4>
          <Content content={op.requestBody.content} />
        </section>
      ) : null}

      <section className="flex flex-col gap-2">
        <h4 className="text-sm font-semibold">Responses</h4>
        <ul className="flex flex-col gap-2">
          {Object.entries(op.responses ?? {}).map(([status, r]) => (
            <li key={status} className="flex flex-col gap-1">
              <p className="text-sm">
                <Badge variant={status.startsWith("2") ? "success" : "secondary"}>{status}</Badge> {r.description}
              </p>
              {status.startsWith("2") ? <Content content={r.content} /> : null}
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}

/** Operations grouped by their first tag, in document order. */
export function operationsByTag(doc: OpenApiDoc) {
  const groups = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, op }]);
    }
  }
  return groups;
}
