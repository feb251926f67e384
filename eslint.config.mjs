import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", "node_modules/**", "lib/generated/**", ".data/**", "tmp/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
  {
    // Test helpers named use*() (Vitest hooks, Playwright fixtures) are not React hooks.
    files: ["tests/**", "e2e/**", "bench/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (destructuring a field away).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
]);
