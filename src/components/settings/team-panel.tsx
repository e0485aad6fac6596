"use client";

import {
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";

const GRANTABLE = [
  { value: "admin", label: "Admin: everything but plan, billing and ownership" },
  { value: "approver", label: "Approver: prepares and accepts cards" },
  { value: "member", label: "Member: prepares, asks for approval" },
  { value: "viewer", label: "Viewer: reads" },
] as const;
type Grantable = (typeof GRANTABLE)[number]["value"];

const dollars = (cents: number | null) => (cents == null ? "no limit" : `$${(cents / 100).toFixed(2)}`);

/** Settings → Team: members with roles, pending invitations, the invite form; controls a role cannot use are disabled, with why. */
export function TeamPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const team = useQuery(trpc.team.members.queryOptions({ workspaceId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.team.members.queryKey({ workspaceId }) });
  const failed = (title: string) => (err: { message: string }) =>
    notifications.show({ color: "red", title, message: err.message });
  const invite = useMutation(
    trpc.team.invite.mutationOptions({
      onSuccess: async (inv) => {
        notifications.show({ color: "teal", title: "Invitation sent", message: `${inv.email} can join for 7 days.` });
        setEmail("");
        await refresh();
      },
      onError: failed("Could not invite"),
    }),
  );
  const changeRole = useMutation(
    trpc.team.changeRole.mutationOptions({ onSuccess: refresh, onError: failed("Could not change the role") }),
  );
  const remove = useMutation(
    trpc.team.remove.mutationOptions({ onSuccess: refresh, onError: failed("Could not remove") }),
  );
  const revoke = useMutation(
    trpc.team.revokeInvite.mutationOptions({ onSuccess: refresh, onError: failed("Could not withdraw") }),
  );
  const transfer = useMutation(
    trpc.team.transferOwnership.mutationOptions({ onSuccess: refresh, onError: failed("Could not transfer") }),
  );
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Grantable>("member");
  const [limit, setLimit] = useState<number | string>("");

  if (!team.data)
    return team.error ? (
      <Alert color="red">{team.error.message}</Alert>
    ) : (
      <Stack gap="xs" aria-busy="true">
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  const { members, invitations, you } = team.data;
  const canManage = you.role === "owner" || you.role === "admin";
  const isOwner = you.role === "owner";
  const why = canManage
    ? null
    : `Only an admin or the owner can invite and manage people; you are ${you.role === "approver" ? "an approver" : `a ${you.role}`}.`;

  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          Team
        </Title>
        <Text c="dimmed" size="sm" maw={680}>
          Everyone in this workspace and what their role lets them do. An agent a person connected acts with that
          person&apos;s role, and loses access when they leave.
        </Text>
      </div>
      {why && (
        <Alert color="gray" role="status">
          {why}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={720}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Person</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Approval limit</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => (
              <Table.Tr key={m.userId}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {m.name} {m.userId === you.userId && <Badge size="xs">you</Badge>}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {m.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {m.role === "owner" || !canManage ? (
                    <Badge variant="light">{m.role}</Badge>
                  ) : (
                    <Select
                      aria-label={`Role of ${m.email}`}
                      size="xs"
                      data={GRANTABLE.map((g) => ({ value: g.value, label: g.value }))}
                      value={m.role}
                      allowDeselect={false}
                      onChange={(v) => v && changeRole.mutate({ workspaceId, userId: m.userId, role: v as Grantable })}
                    />
                  )}
                </Table.Td>
                <Table.Td>{m.role === "approver" ? dollars(m.approvalLimitCents) : "—"}</Table.Td>
                <Table.Td>
                  {m.role === "owner" ? (
                    <Text size="xs" c="dimmed">
                      The owner cannot be removed; ownership moves only by a transfer.
                    </Text>
                  ) : (
                    <Group gap="xs">
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        disabled={!canManage}
                        title={why ?? undefined}
                        onClick={() => remove.mutate({ workspaceId, userId: m.userId })}
                      >
                        Remove
                      </Button>
                      {isOwner && (
                        <Button
                          size="xs"
                          variant="subtle"
                          onClick={() => transfer.mutate({ workspaceId, userId: m.userId })}
                        >
                          Make owner
                        </Button>
                      )}
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <div>
        <Title order={3} size="h4" mb="xs">
          Pending invitations
        </Title>
        {invitations.length === 0 ? (
          <Text size="sm" c="dimmed">
            None.
          </Text>
        ) : (
          <Stack gap="xs">
            {invitations.map((i) => (
              <Group key={i.id} justify="space-between">
                <Text size="sm">
                  {i.email} as {i.role}, until {new Date(i.expiresAt).toUTCString()}
                </Text>
                <Button
                  size="xs"
                  variant="light"
                  disabled={!canManage}
                  title={why ?? undefined}
                  onClick={() => revoke.mutate({ workspaceId, invitationId: i.id })}
                >
                  Withdraw
                </Button>
              </Group>
            ))}
          </Stack>
        )}
      </div>

      <form
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate({
            workspaceId,
            email,
            role,
            approvalLimitCents: role === "approver" && limit !== "" ? Math.round(Number(limit) * 100) : null,
          });
        }}
      >
        <Title order={3} size="h4" mb="xs">
          Invite someone
        </Title>
        <Group align="end">
          <TextInput
            label="Email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            disabled={!canManage}
          />
          <Select
            label="Role"
            data={GRANTABLE.map((g) => ({ value: g.value, label: g.label }))}
            value={role}
            allowDeselect={false}
            onChange={(v) => v && setRole(v as Grantable)}
            disabled={!canManage}
            w={320}
          />
          {role === "approver" && (
            <NumberInput
              label="Limit per card (USD)"
              description="Empty: no limit"
              min={0}
              value={limit}
              onChange={setLimit}
              disabled={!canManage}
            />
          )}
          <Button type="submit" loading={invite.isPending} disabled={!canManage} title={why ?? undefined}>
            Send invitation
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
