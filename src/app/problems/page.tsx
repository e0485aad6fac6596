import { Anchor, Table, TableTbody, TableTd, TableTh, TableThead, TableTr, Title } from "@mantine/core";
import type { Metadata } from "next";
import { DocPage } from "@/components/docs/doc-page";
import { problemTable } from "@/server/ground/errors";

export const metadata: Metadata = { title: "Problem types" };

export default function ProblemsIndex() {
  return (
    <DocPage>
      <Title order={1}>Problem types</Title>
      <Table>
        <TableThead>
          <TableTr>
            <TableTh>Status</TableTh>
            <TableTh>Problem</TableTh>
          </TableTr>
        </TableThead>
        <TableTbody>
          {Object.values(problemTable).map((p) => (
            <TableTr key={p.slug}>
              <TableTd>{p.status}</TableTd>
              <TableTd>
                <Anchor href={`/problems/${p.slug}`}>{p.title}</Anchor>
              </TableTd>
            </TableTr>
          ))}
        </TableTbody>
      </Table>
    </DocPage>
  );
}
