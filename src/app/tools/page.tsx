import { redirect } from "next/navigation";

export default function ToolsIndex() {
  redirect("/tools/holdout-size");
}
