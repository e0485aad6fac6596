import { Badge, Code, Group, Text, Title } from "@mantine/core";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DocPage } from "@/components/docs/doc-page";
import { problemTable } from "@/server/ground/errors";

const bySlug = (slug: string) => Object.values(problemTable).find((p) => p.slug === slug);

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const problem = bySlug((await params).slug);
  return { title: problem ? problem.title : "Problem type" };
}

/** The page a problem document's `type` URI points to: what it means and how to fix it. */
export default async function ProblemPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const problem = bySlug(slug);
  if (!problem) notFound();
  return (
    <DocPage>
      <div>
        <Group gap="sm" mb="xs">
          <Badge size="lg" variant="light" color={problem.status >= 500 ? "red" : "orange"}>
            HTTP {problem.status}
          </Badge>
          <Code>{slug}</Code>
        </Group>
        <Title order={1}>{problem.title}</Title>
      </div>
      <Text size="lg">{problem.explanation}</Text>
      <Text size="sm" c="dimmed">
        Problem documents of this type carry <Code>type</Code> set to this page&apos;s address, a <Code>detail</Code>{" "}
        sentence about the occurrence and the request path in <Code>instance</Code>.
      </Text>
    </DocPage>
  );
}
