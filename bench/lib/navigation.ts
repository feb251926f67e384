// What the browser computes for the `_rsc` parameter of a navigation; Next checks it against the headers.
import { computeCacheBustingSearchParam } from "next/dist/shared/lib/router/utils/cache-busting-search-param.js";

/**
 * The request the app makes when the form moves on to the next assignment
 * (router.push after "Submit"), as captured from Chromium: the RSC payload with
 * the router's state tree, which marks the [assignmentId] segment for refetch,
 * so the layouts above it (the grader's shell) are not rendered again.
 */
export async function navigationRequest(fromId: string, toId: string, cookie: string): Promise<[string, RequestInit]> {
  const page = ["__PAGE__", {}, null, null, 0];
  const segment = [["assignmentId", toId, "d", null], { children: page }, null, "refetch", 4];
  const tree = ["", { children: ["(grader)", { children: ["grade", { children: segment }, null, null, 8] }, null, null, 8] }, null, null, 24];
  const stateTree = encodeURIComponent(JSON.stringify(tree));
  const nextUrl = `/grade/${fromId}`;
  const rsc = await computeCacheBustingSearchParam(undefined, undefined, stateTree, nextUrl);
  return [`/grade/${toId}?submitted=1&_rsc=${rsc}`, { headers: { cookie, rsc: "1", "next-router-state-tree": stateTree, "next-url": nextUrl }, redirect: "manual" }];
}
