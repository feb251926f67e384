"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useTransition } from "react";
import { withParams } from "@/lib/tables/search-params";

/**
 * Changes a server-driven table's search params. The navigation runs in a
 * transition, so the current page stays on screen (marked busy) until the
 * server has rendered the next one.
 */
export function useTableUrl() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const navigate = useCallback(
    (changes: Record<string, string | number | null | undefined>) => {
      const search = withParams(searchParams.toString(), changes);
      startTransition(() => router.push(`${pathname}${search}`, { scroll: false }));
    },
    [router, pathname, searchParams],
  );
  return { navigate, pending, searchParams };
}
