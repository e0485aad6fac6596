"use client";

import { PageError } from "@/components/ui/page-states";

export default function WorkspaceError({ reset }: { error: Error; reset: () => void }) {
  return <PageError onRetry={reset} />;
}
