"use client";

import { VerifyEmailBanner } from "@/components/auth/verify-email-banner";
import {
  AppShell,
  Badge,
  Burger,
  Group,
  NavLink,
  ScrollArea,
  Text,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { useTRPC } from "@/trpc/react";
import { RoleProvider, ViewerNote } from "@/components/access/role";
import { roleAllows, type TRole } from "@/server/ground/access/roles";
import { navItems } from "./nav-items";
import { UserMenu } from "./user-menu";
import { type WorkspaceOption, WorkspaceSwitcher } from "./workspace-switcher";

export interface ShellProps {
  user: { name: string; email: string };
  workspace: WorkspaceOption;
  workspaces: WorkspaceOption[];
  /** The person's role here: pages hide or disable what it cannot do (the server refuses it anyway). */
  role: TRole;
  children: ReactNode;
}

/** The frame of every workspace page: header with workspace switcher and account menu, navigation, content. */
export function WorkspaceShell({ user, workspace, workspaces, role, children }: ShellProps) {
  const [opened, { toggle, close }] = useDisclosure();
  const pathname = usePathname();
  const base = `/w/${workspace.id}`;
  const trpc = useTRPC();
  const pending = useQuery(
    trpc.confirmation.pendingCount.queryOptions({ workspaceId: workspace.id }, { refetchInterval: 15_000 }),
  );

  useEffect(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari before 18.4.
    document.cookie = `dm_ws=${workspace.id}; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`;
  }, [workspace.id]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the phone menu closes when the page changes.
  useEffect(close, [pathname, close]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {/* The workspace's name gives way on a narrow screen (it truncates), so the account menu stays whole. */}
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <UnstyledButton
              component={Link}
              href={base}
              fw={700}
              aria-label="Direct Mail: overview"
              style={{ display: "flex", alignItems: "center", gap: 8, whiteSpace: "nowrap" }}
            >
              {/* eslint-disable-next-line @next/next/no-img-element */}
              {/* biome-ignore lint/performance/noImgElement: a 24 px SVG that next/image would only pass through. */}
              <img src="/favicon.svg" alt="" width={24} height={24} />
              <Text span fw={700} visibleFrom="sm">
                Direct Mail
              </Text>
            </UnstyledButton>
            <WorkspaceSwitcher current={workspace} workspaces={workspaces} />
            <PlanBadge plan={workspace.plan} />
          </Group>
          <UserMenu user={user} />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Workspace">
        <ScrollArea>
          {navItems.map((item) => {
            const href = item.path ? `${base}/${item.path}` : base;
            const active = item.path ? pathname.startsWith(href) : pathname === base;
            return (
              <NavLink
                key={item.label}
                component={Link}
                href={href}
                label={item.label}
                leftSection={<item.icon size={18} stroke={1.6} aria-hidden />}
                rightSection={
                  item.showsPendingCards && pending.data ? (
                    <Badge
                      size="sm"
                      color="red"
                      circle
                      aria-label={`${pending.data} waiting for ${roleAllows(role, "decide") ? "you" : "an approver"}`}
                    >
                      {pending.data}
                    </Badge>
                  ) : null
                }
                active={active}
                aria-current={active ? "page" : undefined}
              />
            );
          })}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0">
        <VisuallyHidden component="p">Workspace {workspace.name}</VisuallyHidden>
        <VerifyEmailBanner />
        <RoleProvider role={role}>
          <ViewerNote />
          {children}
        </RoleProvider>
      </AppShell.Main>
    </AppShell>
  );
}

function PlanBadge({ plan }: { plan: "audit" | "paid" }) {
  const label = plan === "paid" ? "Paid plan" : "Audit plan";
  const tip =
    plan === "paid" ? "Mailing is on." : "Free plan: everything works except mailing; nothing reaches a mailbox.";
  return (
    <Tooltip label={tip} withArrow>
      <Badge variant="light" color={plan === "paid" ? "teal" : "gray"} visibleFrom="xs" tabIndex={0}>
        <Text span size="xs" fw={700}>
          {label}
        </Text>
      </Badge>
    </Tooltip>
  );
}
