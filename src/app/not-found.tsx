import { Center } from "@mantine/core";
import { PageNotFound } from "@/components/ui/page-states";

export default function NotFound() {
  return (
    <Center mih="100vh" component="main">
      <PageNotFound />
    </Center>
  );
}
