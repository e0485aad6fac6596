"use client";

import { Tabs } from "@mantine/core";
import { usePathname, useRouter } from "next/navigation";

/** The sections of Settings, as tabs that are links. */
export function SettingsNav({ workspaceId }: { workspaceId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const tabs = [
    { value: "plan", label: "Plan" },
    { value: "team", label: "Team" },
    { value: "activity", label: "Activity" },
    { value: "printing", label: "Printing" },
    { value: "api-keys", label: "API keys" },
    { value: "connected-agents", label: "Connected agents" },
    { value: "crm", label: "CRM" },
    { value: "webhooks", label: "Webhooks" },
    { value: "email", label: "Email" },
    { value: "notifications", label: "Notifications" },
    { value: "brand", label: "Brand" },
  ];
  const active = tabs.find((t) => pathname.endsWith(`/settings/${t.value}`))?.value ?? tabs[0].value;
  return (
    <Tabs
      value={active}
      onChange={(v) => v && router.push(`/w/${workspaceId}/settings/${v}`)}
      mb="lg"
      aria-label="Settings sections"
    >
      <Tabs.List>
        {tabs.map((t) => (
          <Tabs.Tab key={t.value} value={t.value}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
