"use client";

import { Alert, Tooltip } from "@mantine/core";
import { createContext, type ReactNode, useContext } from "react";
import { forbiddenSentence, roleAllows, type TAction, type TRole } from "@/server/ground/access/roles";

const RoleContext = createContext<TRole>("viewer");

/** The signed-in person's role in the workspace shown, for every page under it. */
export function RoleProvider({ role, children }: { role: TRole; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

export function useRole(): TRole {
  return useContext(RoleContext);
}

export interface Can {
  allowed: boolean;
  /** Why not, in the sentence the server answers with (empty when allowed). */
  why: string;
}

/** Whether the person's role may take `action` (the same table the server checks), and why not. */
export function useCan(action: TAction): Can {
  const role = useRole();
  const allowed = roleAllows(role, action);
  return { allowed, why: allowed ? "" : forbiddenSentence(role, action) };
}

/**
 * A control the role cannot use: shown disabled, with the reason on hover and focus (a disabled
 * button gets no pointer events, so the wrapper carries it for mouse, keyboard and screen readers).
 */
export function RoleNote({ can, children }: { can: Can; children: ReactNode }) {
  if (can.allowed) return <>{children}</>;
  return (
    <Tooltip label={can.why} multiline w={280}>
      <span role="note" aria-label={can.why} style={{ display: "inline-block" }}>
        {children}
      </span>
    </Tooltip>
  );
}

/** Children only when the role may take `action`: for controls a page's banner already explains. */
export function IfCan({ action, children }: { action: TAction; children: ReactNode }) {
  return useCan(action).allowed ? children : null;
}

/** A whole page or form the role cannot use: the reason instead of controls the server would refuse. */
export function RoleGate({ action, children }: { action: TAction; children: ReactNode }) {
  const can = useCan(action);
  if (can.allowed) return <>{children}</>;
  return (
    <Alert color="gray" title="Not open to your role" role="status" maw={720}>
      {can.why}
    </Alert>
  );
}

/** Says once, above every page, what a viewer's role leaves out (the controls it cannot use are not shown). */
export function ViewerNote() {
  const role = useRole();
  if (role !== "viewer") return null;
  return (
    <Alert color="gray" role="status" mb="md" py="xs">
      You are a viewer in this workspace: you can read everything, and changes need the member role or higher, so their
      buttons are not shown.
    </Alert>
  );
}

/** Above a page whose changes the role cannot make: why its change buttons are not shown (reading stays open). */
export function RoleNotice({ action, children }: { action: TAction; children?: ReactNode }) {
  const can = useCan(action);
  const role = useRole();
  // A viewer already reads the same at the top of every page.
  if (can.allowed || (role === "viewer" && action === "prepare")) return null;
  return (
    <Alert color="gray" role="status" mb="md" py="xs" maw={900}>
      {can.why} {children ?? "What it cannot change is not shown."}
    </Alert>
  );
}
