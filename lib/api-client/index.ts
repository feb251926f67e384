import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, operations, paths } from "./schema";

/**
 * A typed client of the Clingrade API, generated from its OpenAPI document
 * (./openapi.json -> ./schema.d.ts by `npm run openapi:client`): each call's
 * path, parameters, body and answer are checked against the document.
 *
 *   const api = clingradeClient({ baseUrl: "https://clingrade.example", token });
 *   const { data, error } = await api.GET("/api/v1/studies/{id}", { params: { path: { id } } });
 */
export function clingradeClient({ token, ...options }: ClientOptions & { token: string }): Client<paths> {
  return createClient<paths>({ ...options, headers: { ...(options.headers as Record<string, string> | undefined), authorization: `Bearer ${token}` } });
}
