/**
 * The published templates' default escalation thresholds, where code outside
 * the templates (tests, fixtures) has always found them. A study's thresholds
 * come from its own documents (lib/studies/thresholds.ts).
 */
export * from "./templates/thresholds";
