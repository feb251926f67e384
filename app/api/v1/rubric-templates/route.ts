import { apiRoute } from "@/lib/server/api-route";
import { RUBRIC_TEMPLATES } from "@/lib/rubrics/templates";

export const GET = apiRoute(["LEAD", "ADMIN"], async () => ({
  templates: RUBRIC_TEMPLATES.map((t) => ({ key: t.key, name: t.name, citation: t.citation, description: t.description, rubric: t.build() })),
}));
