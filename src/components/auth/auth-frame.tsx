"use client";

import { Anchor, Center, Paper, Stack, Text, Title } from "@mantine/core";
import Link from "next/link";
import type { ReactNode } from "react";

/** The centred card that sign-in and sign-up share. */
export function AuthFrame({ title, subtitle, children }: { title: string; subtitle: ReactNode; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Stack w="100%" maw={420} gap="lg">
        <Anchor component={Link} href="/" c="dark" fw={700} ta="center" size="lg" underline="never">
          Direct Mail Programme
        </Anchor>
        <Paper withBorder shadow="sm" p="xl" component="main">
          <Title order={1} size="h2" mb={4}>
            {title}
          </Title>
          <Text c="dimmed" size="sm" mb="lg">
            {subtitle}
          </Text>
          {children}
        </Paper>
      </Stack>
    </Center>
  );
}
