import { Container } from "@mantine/core";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CalculatorPage } from "@/components/tools/calculator-page";
import { TOOLS, toolBySlug } from "@/components/tools/tool-specs";
import { ToolsNav } from "@/components/tools/tools-nav";

export function generateStaticParams() {
  return TOOLS.map((t) => ({ slug: t.slug }));
}

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const tool = toolBySlug((await params).slug);
  return { title: tool ? `${tool.title} calculator` : "Calculator", description: tool?.intro };
}

export default async function ToolPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!toolBySlug(slug)) notFound();
  return (
    <Container size="lg" py="xl" component="main">
      <ToolsNav current={slug} />
      <CalculatorPage slug={slug} />
    </Container>
  );
}
