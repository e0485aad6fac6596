"use client";

import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDebouncedValue } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatCents } from "@/components/ui/format";
import { piecePriceWords } from "@/server/programme/fulfilment/price-words";
import { countryPricesOf } from "@/server/programme/fulfilment/prices";
import { PRINT_SIZES, type TPrintFormat } from "@/server/programme/fulfilment/sizes";
import { useTRPC } from "@/trpc/react";

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });
export const countryName = (code: string) => {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
};

const formatLabels: Record<TPrintFormat, string> = {
  postcard: "Postcards",
  letter: "Letters",
  handwritten: "Handwritten notes",
  gift: "Gifts",
};

/** Propose a printer contract: vendor, product, countries, and the vendor's live quote before saving. */
export function AddContractModal({
  workspaceId,
  opened,
  onClose,
}: {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const vendors = useQuery({ ...trpc.fulfilment.vendors.queryOptions({ workspaceId }), enabled: opened });
  const form = useForm({
    initialValues: {
      name: "",
      vendor: "sandbox",
      format: "postcard" as TPrintFormat,
      size: "6x9",
      countries: ["US"] as string[],
      priceUsd: "" as number | string,
    },
    validate: {
      name: (v) => (v.trim() ? null : "Give the contract a name."),
      countries: (v) => (v.length ? null : "Choose at least one country."),
    },
  });
  const v = form.values;
  const vendor = vendors.data?.find((x) => x.vendor === v.vendor);
  const sizes = vendor?.products.find((p) => p.format === v.format)?.sizes ?? [];
  // Lob's and Handwrytten's price is the owner's own account's: entered here (in USD), confirmed on the go-live card.
  const ownerPriced = v.vendor === "lob" || v.vendor === "handwrytten";
  const unitCostCents =
    ownerPriced && typeof v.priceUsd === "number" && v.priceUsd > 0 ? Math.round(v.priceUsd * 100) : undefined;
  const [quoteInput] = useDebouncedValue(
    {
      vendor: v.vendor,
      format: v.format,
      size: v.size,
      countries: v.countries,
      ...(unitCostCents ? { unitCostCents } : {}),
    },
    250,
  );
  const quote = useQuery({
    ...trpc.fulfilment.quote.queryOptions({ workspaceId, ...quoteInput }),
    enabled:
      opened &&
      quoteInput.countries.length > 0 &&
      sizes.includes(quoteInput.size) &&
      (!ownerPriced || quoteInput.unitCostCents !== undefined),
    retry: false,
  });
  const create = useMutation(
    trpc.fulfilment.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.fulfilment.contracts.queryKey({ workspaceId }) });
        form.reset();
        onClose();
      },
      onError: (err) => form.setFieldError("name", err.message),
    }),
  );

  return (
    <Modal opened={opened} onClose={onClose} title="Add a printer contract" size="lg">
      <form
        onSubmit={form.onSubmit(({ priceUsd: _price, ...values }) =>
          create.mutate({ workspaceId, ...values, ...(unitCostCents ? { unitCostCents } : {}) }),
        )}
      >
        <Stack>
          <TextInput
            label="Name"
            placeholder="6x9 postcards, North America"
            withAsterisk
            data-autofocus
            {...form.getInputProps("name")}
          />
          {vendors.isPending ? (
            <Skeleton h={36} />
          ) : (
            <Select
              label="Printer"
              description={vendor?.description}
              data={(vendors.data ?? []).map((x) => ({ value: x.vendor, label: x.label }))}
              allowDeselect={false}
              {...form.getInputProps("vendor")}
            />
          )}
          <Group grow align="flex-start">
            <Select
              label="Format"
              data={(Object.keys(PRINT_SIZES) as TPrintFormat[]).map((f) => ({ value: f, label: formatLabels[f] }))}
              allowDeselect={false}
              value={v.format}
              onChange={(f) => {
                const format = (f ?? "postcard") as TPrintFormat;
                form.setValues({ format, size: PRINT_SIZES[format][0].size });
              }}
            />
            <Select
              label="Size"
              data={PRINT_SIZES[v.format]
                .filter((s) => sizes.includes(s.size))
                .map((s) => ({ value: s.size, label: s.label }))}
              allowDeselect={false}
              {...form.getInputProps("size")}
            />
          </Group>
          <MultiSelect
            label="Countries it mails to"
            description="Each piece is charged the printer's price for its recipient's country, quoted below."
            data={(vendor?.countries ?? []).map((c) => ({ value: c, label: `${countryName(c)} (${c})` }))}
            searchable
            {...form.getInputProps("countries")}
          />
          {ownerPriced && (
            <NumberInput
              label={
                v.vendor === "handwrytten"
                  ? "Price per note on your Handwrytten account (USD)"
                  : "Price per piece on your Lob plan (USD)"
              }
              description={
                v.vendor === "handwrytten"
                  ? "Card, writing and postage as your Handwrytten account pays them; the campaign's budget holds this much per note."
                  : "Printing and postage as your Lob plan charges it; the campaign's budget holds this much per piece."
              }
              min={0.01}
              max={1000}
              decimalScale={2}
              fixedDecimalScale
              prefix="$"
              {...form.getInputProps("priceUsd")}
            />
          )}
          <div aria-live="polite">
            {quote.isError ? (
              <Alert color="red" p="xs">
                {quote.error.message}
              </Alert>
            ) : quote.data ? (
              <Stack gap={4}>
                <Text size="sm">
                  Quote:{" "}
                  <b>
                    {piecePriceWords(
                      { unitCostCents: quote.data.unitCostCents, countryPrices: countryPricesOf(quote.data) },
                      formatCents,
                      "per piece",
                    )}
                  </b>
                  , printing and postage.
                </Text>
                <Table withTableBorder fz="sm" verticalSpacing={4}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Country</Table.Th>
                      <Table.Th ta="right">Printing</Table.Th>
                      <Table.Th ta="right">Postage</Table.Th>
                      <Table.Th ta="right">Per piece</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {quote.data.perCountry.map((c) => (
                      <Table.Tr key={c.country}>
                        <Table.Td>{countryName(c.country)}</Table.Td>
                        <Table.Td ta="right">{formatCents(c.printCents)}</Table.Td>
                        <Table.Td ta="right">{formatCents(c.postageCents)}</Table.Td>
                        <Table.Td ta="right">{formatCents(c.unitCostCents)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Stack>
            ) : (
              <Skeleton h={60} />
            )}
          </div>
          <Text size="xs" c="dimmed">
            The contract is proposed at the quoted prices. It prints nothing until you approve it.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!quote.data}>
              Propose contract
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
