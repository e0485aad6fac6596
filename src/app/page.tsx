import { redirect } from "next/navigation";
import { Landing } from "@/components/marketing/landing";
import { getSessionUser } from "@/server/auth/session";
import { mcpResource } from "@/server/oauth/config";
import { baseUrl } from "@/server/platform/base-url";

export default async function Home() {
  if (await getSessionUser()) redirect("/w");
  return <Landing mcpUrl={mcpResource(baseUrl())} />;
}
