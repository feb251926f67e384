import pkg from "@/package.json" with { type: "json" };

/**
 * The app's version (package.json, bundled at build time) and the commit it was built from when
 * the build recorded one (CLINGRADE_COMMIT); what a protocol and a report cite as the software.
 */
export function appVersion(): { name: string; version: string; commit: string | null } {
  return { name: "Clingrade", version: pkg.version, commit: process.env.CLINGRADE_COMMIT?.trim() || null };
}
