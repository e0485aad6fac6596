"use client";

import { Anchor, Box, Group } from "@mantine/core";
import Link from "next/link";
import { PageNotFound } from "@/components/ui/page-states";

/** An unknown workspace (or one the person is not a member of): a 404 in the app's frame, with the way back. */
export default function UnknownWorkspace() {
  return (
    <Box component="main" mih="100vh" bg="var(--mantine-color-gray-0)">
      <Group h={60} px="md" bg="white" style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}>
        <Anchor component={Link} href="/w" fw={700} c="dark" underline="never">
          Direct Mail
        </Anchor>
      </Group>
      <PageNotFound />
    </Box>
  );
}
