/** How the outbox names each kind of message. */
export const EMAIL_KIND_LABELS: Record<string, string> = {
  test: "Test email",
  password_reset: "Password reset",
  password_changed: "Password changed",
  email_verification: "Email verification",
  invitation: "Invitation",
  card_waiting: "Card waiting",
  campaign_budget_stopped: "Budget spent",
  vendor_connection_failed: "Connection failed",
  weekly_summary: "Weekly summary",
};

export const EMAIL_STATUS_COLORS = { queued: "yellow", sending: "blue", sent: "teal", failed: "red" } as const;
