import { redirect } from "next/navigation";
import { Landing } from "@/components/marketing/landing";
import { getSessionUser } from "@/server/records/auth/session";
import { mcpResource } from "@/server/records/oauth/config";
import { baseUrl } from "@/server/ground/platform/base-url";

export default async function Home() {
  if (await getSessionUser()) redirect("/w");
  return <Landing mcpUrl={mcpResource(baseUrl())} />;
}
