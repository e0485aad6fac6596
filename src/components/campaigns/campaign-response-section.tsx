"use client";

import { Checkbox, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { GIFT_CATALOG, type TGiftItem } from "@/server/programme/designs/gift-catalog";
import { CLAIM_WINDOW_DAYS } from "@/server/programme/responses/page-settings";
import type { CampaignFormApi } from "./campaign-form-values";

/** What the printed response link opens: the destination, a personal landing page, or (gifts) a claim page. */
export function ResponseSection({ form }: { form: CampaignFormApi }) {
  const v = form.values;
  const gift = v.format === "gift";
  const landing = v.responseMode === "landing_page";
  const claim = v.responseMode === "gift_claim";
  const needsDestination = v.responseMode === "redirect" || (landing && v.pageCallToAction === "visit_site");
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb={4}>
        Response
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        What the printed link and QR code open. A hosted page is a page on this service made for each recipient in your
        brand kit&apos;s look; what they do there is recorded on this campaign.
      </Text>
      <Stack>
        <Select
          label="The printed link opens"
          allowDeselect={false}
          data={[
            { value: "redirect", label: "Your site (the destination URL, with sid)" },
            { value: "landing_page", label: "A personal landing page" },
            ...(gift ? [{ value: "gift_claim", label: "A gift claim page (the gift ships only after a claim)" }] : []),
          ]}
          {...form.getInputProps("responseMode")}
        />
        {landing && (
          <Select
            label="Call to action"
            description="The landing page shows the recipient's name, company and message, then this one action."
            allowDeselect={false}
            data={[
              { value: "reply", label: "Reply: a short form" },
              { value: "meeting", label: "Book a meeting: your scheduling link, in a new tab" },
              { value: "visit_site", label: "Visit the site: the destination URL, with sid" },
            ]}
            {...form.getInputProps("pageCallToAction")}
          />
        )}
        {landing && v.pageCallToAction === "meeting" && (
          <TextInput
            label="Meeting link"
            description="A scheduling page of your choice (https). Each click is recorded."
            placeholder="https://cal.example.com/you/intro"
            {...form.getInputProps("meetingUrl")}
          />
        )}
        <TextInput
          label="Destination URL"
          description={
            needsDestination
              ? "Where the link leads; sid=… is added to it so you can report conversions."
              : "Not used by this page; keep one for a later campaign if you like."
          }
          placeholder="https://www.example.com/welcome"
          {...form.getInputProps("destinationUrl")}
        />
        {claim && (
          <>
            <Checkbox.Group
              label="Gifts the recipient may choose from"
              description="None ticked: the design's gift alone. Every gift costs the same to send (the printer contract's price)."
              value={v.giftOptions}
              onChange={(values) => form.setFieldValue("giftOptions", values as TGiftItem[])}
            >
              <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
                {(Object.entries(GIFT_CATALOG) as [TGiftItem, (typeof GIFT_CATALOG)[TGiftItem]][]).map(([id, g]) => (
                  <Checkbox key={id} value={id} label={g.name} description={g.description} />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            <NumberInput
              label="Days to claim"
              description="The gift's budget is held meanwhile; unclaimed by then, nothing ships and the budget is released."
              min={CLAIM_WINDOW_DAYS.min}
              max={CLAIM_WINDOW_DAYS.max}
              allowDecimal={false}
              w={200}
              {...form.getInputProps("claimWindowDays")}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
