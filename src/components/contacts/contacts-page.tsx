"use client";

import { Button, Group, SegmentedControl, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconDownload, IconFileUpload, IconPlus, IconSearch, IconUsersGroup, IconX } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { formatCount, formatNumber } from "@/components/ui/format";
import { EmptyState } from "@/components/ui/page-states";
import { useTRPC } from "@/trpc/react";
import { AudiencePickerModal, cleanFilter } from "./audience-picker-modal";
import { ContactFormModal } from "./contact-form";
import { type ContactFilterValue, ContactsTable } from "./contacts-table";
import { useCan } from "@/components/access/role";

/** The Contacts page: server-side search and filters (kept in the address), paging, selection, import, export, audiences. */
export function ContactsPage({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [search, setSearch] = useState(params.get("search") ?? "");
  const [debounced] = useDebouncedValue(search, 300);
  const filter: ContactFilterValue = useMemo(
    () =>
      cleanFilter({
        search: debounced.trim() || null,
        audienceId: params.get("audienceId"),
        accountId: params.get("accountId"),
        country: params.get("country"),
        suppressed: params.get("suppressed") === "yes" ? true : params.get("suppressed") === "no" ? false : null,
      }),
    [debounced, params],
  );
  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    router.replace(`${pathname}${next.size ? `?${next}` : ""}`, { scroll: false });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the debounced text settles, not on every URL change the effect itself makes.
  useEffect(() => {
    if ((params.get("search") ?? "") !== debounced.trim()) setParam("search", debounced.trim() || null);
  }, [debounced]);

  const total = useQuery(trpc.contact.count.queryOptions({ workspaceId }));
  const filtered = useQuery(trpc.contact.count.queryOptions({ workspaceId, ...filter }));
  const audiences = useQuery(trpc.audience.list.queryOptions({ workspaceId }));
  const countries = useQuery(trpc.contact.countries.queryOptions({ workspaceId }));
  const account = useQuery(
    trpc.account.get.queryOptions(
      { workspaceId, accountId: filter.accountId ?? "" },
      { enabled: Boolean(filter.accountId) },
    ),
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [saving, setSaving] = useState(false);
  const [creating, setCreating] = useState(false);
  const filtering = Object.keys(filter).length > 0;
  const exportHref = `/api/contacts/export?${new URLSearchParams({ workspaceId, ...Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, String(v)])) })}`;

  const prepare = useCan("prepare");
  const importButton = prepare.allowed ? (
    <Button component={Link} href={`/w/${workspaceId}/contacts/import`} leftSection={<IconFileUpload size={16} />}>
      Import CSV
    </Button>
  ) : null;
  const noContacts = total.data === 0;

  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between">
        <div>
          <Title order={1} size="h2">
            Contacts
          </Title>
          {total.data !== undefined && (
            <Text size="sm" c="dimmed">
              {formatNumber(total.data)} in this workspace
            </Text>
          )}
        </div>
        <Group gap="xs">
          {importButton}
          {prepare.allowed && (
            <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Add contact
            </Button>
          )}
          {!noContacts && (
            <Button variant="default" component="a" href={exportHref} download leftSection={<IconDownload size={16} />}>
              Export CSV
            </Button>
          )}
        </Group>
      </Group>

      {noContacts ? (
        <EmptyState title="No contacts yet" action={importButton}>
          Bring your people in from a CSV export of your CRM or a spreadsheet: names, emails, companies and postal
          addresses. Each contact gets an account (its company), and the import lands in an audience you can mail.
          Agents can import CSV text with the contacts_import tool.
        </EmptyState>
      ) : (
        <>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              label="Search"
              placeholder="Name, email or company"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: "100%", sm: 260 }}
              maxLength={100}
            />
            <Select
              label="Audience"
              placeholder="Any audience"
              clearable
              searchable
              data={(audiences.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
              value={filter.audienceId ?? null}
              onChange={(v) => setParam("audienceId", v)}
              w={{ base: "100%", sm: 220 }}
            />
            <Select
              label="Country"
              placeholder="Any country"
              clearable
              searchable
              data={(countries.data ?? []).map((c) => ({
                value: c.country,
                label: `${c.country} (${formatNumber(c.contacts)})`,
              }))}
              value={filter.country ?? null}
              onChange={(v) => setParam("country", v)}
              w={{ base: "100%", sm: 160 }}
            />
            <div>
              <Text size="sm" fw={500} mb={4} id="suppression-filter">
                Suppression
              </Text>
              <SegmentedControl
                aria-labelledby="suppression-filter"
                value={params.get("suppressed") ?? "all"}
                onChange={(v) => setParam("suppressed", v === "all" ? null : v)}
                data={[
                  { value: "all", label: "All" },
                  { value: "no", label: "Mailable" },
                  { value: "yes", label: "Suppressed" },
                ]}
              />
            </div>
          </Group>
          {filter.accountId && (
            <Group gap="xs">
              <Text size="sm">Account: {account.data?.name ?? "…"}</Text>
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<IconX size={12} />}
                onClick={() => setParam("accountId", null)}
              >
                Any account
              </Button>
            </Group>
          )}
          <Group gap="xs" display={prepare.allowed ? undefined : "none"}>
            {selected.size > 0 ? (
              <>
                <Button size="xs" leftSection={<IconUsersGroup size={14} />} onClick={() => setAdding(true)}>
                  Add {formatNumber(selected.size)} selected to an audience
                </Button>
                <Button size="xs" variant="subtle" onClick={() => setSelected(new Set())}>
                  Clear selection
                </Button>
              </>
            ) : (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconUsersGroup size={14} />}
                disabled={!filtered.data}
                onClick={() => setSaving(true)}
              >
                {filtered.data === 1
                  ? `Save ${filtering ? "this" : "the"} contact as an audience…`
                  : `Save ${filtering ? "these" : "all"} ${formatCount(filtered.data ?? 0, "contact")} as an audience…`}
              </Button>
            )}
          </Group>
          <ContactsTable
            workspaceId={workspaceId}
            filter={filter}
            selectable
            selected={selected}
            onSelectedChange={setSelected}
            empty={
              <EmptyState title="No contacts match">
                Try other words, or clear a filter. Search matches the start of words of a name, an email or a company.
              </EmptyState>
            }
          />
        </>
      )}
      <AudiencePickerModal
        workspaceId={workspaceId}
        opened={adding}
        onClose={() => setAdding(false)}
        contactIds={[...selected]}
        count={selected.size}
        onDone={() => setSelected(new Set())}
      />
      <AudiencePickerModal
        workspaceId={workspaceId}
        opened={saving}
        onClose={() => setSaving(false)}
        filter={filter}
        count={filtered.data ?? 0}
      />
      <ContactFormModal workspaceId={workspaceId} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
