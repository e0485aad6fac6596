import { z } from "zod";

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "An email address has at most 254 characters.")
  .pipe(z.email("Enter a valid email address, like ada@example.com."));

export const ZWorkspaceName = z
  .string()
  .trim()
  .min(2, "A workspace name has at least 2 characters.")
  .max(80, "A workspace name has at most 80 characters.");

export const ZCreateWorkspaceInput = z.object({ name: ZWorkspaceName });
