import {
  type Icon,
  IconAddressBook,
  IconBan,
  IconBuilding,
  IconChecklist,
  IconFileImport,
  IconInbox,
  IconLayoutDashboard,
  IconMail,
  IconPalette,
  IconSettings,
  IconUsersGroup,
} from "@tabler/icons-react";

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
  { label: "Contacts", path: "contacts", icon: IconAddressBook },
  { label: "Audiences", path: "audiences", icon: IconUsersGroup },
  { label: "Accounts", path: "accounts", icon: IconBuilding },
  { label: "Imports", path: "imports", icon: IconFileImport },
  { label: "Suppressions", path: "suppressions", icon: IconBan },
  { label: "Mailability audit", path: "audits", icon: IconChecklist },
  { label: "Campaigns", path: "campaigns", icon: IconMail },
  { label: "Designs", path: "designs", icon: IconPalette },
  { label: "Confirmations", path: "confirmations", icon: IconInbox, showsPendingCards: true },
  { label: "Settings", path: "settings", icon: IconSettings },
];
