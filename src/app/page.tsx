import { redirect } from "next/navigation";
import { Landing } from "@/components/marketing/landing";
import { getSessionUser } from "@/server/auth/session";

export default async function Home() {
  if (await getSessionUser()) redirect("/w");
  return <Landing />;
}
