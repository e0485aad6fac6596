"use client";

import { Alert, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { groupIssues, type TRenderIssueLike } from "./render-issue-groups";

/** A piece's issues as one alert per kind, each titled with what it is (characters no font draws are not "adjusted to fit"). */
export function RenderIssueAlerts({ issues }: { issues: TRenderIssueLike[] }) {
  return (
    <>
      {groupIssues(issues).map((g) => (
        <Alert key={g.group} color={g.color} icon={<IconAlertTriangle size={18} />} p="xs" title={g.title}>
          <Stack gap={2}>
            {g.issues.map((i) => (
              <Text size="sm" key={i.message}>
                {i.message}
              </Text>
            ))}
          </Stack>
        </Alert>
      ))}
    </>
  );
}
