import { type Icon, IconInbox, IconLayoutDashboard, IconMail, IconSettings } from "@tabler/icons-react";

export interface NavItem {
  label: string;
  /** Path under /w/<workspaceId>; "" is the overview. */
  path: string;
  icon: Icon;
  /** Shows the number of confirmation cards waiting for the owner. */
  showsPendingCards?: boolean;
}

/** The workspace navigation, in order. A page is listed here once it exists. */
export const navItems: NavItem[] = [
  { label: "Overview", path: "", icon: IconLayoutDashboard },
  { label: "Campaigns", path: "campaigns", icon: IconMail },
  { label: "Confirmations", path: "confirmations", icon: IconInbox, showsPendingCards: true },
  { label: "Settings", path: "settings", icon: IconSettings },
];
