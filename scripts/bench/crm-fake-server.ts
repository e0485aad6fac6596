/**
 * A local CRM fake for bench:crm-sync, in a process of its own (as a real CRM is on another
 * machine, its JSON is not made on the sync's event loop). Usage: crm-fake-server.ts hubspot|salesforce CONTACTS.
 * Prints one JSON line { url } when it listens; stops on SIGTERM.
 */
import { generateCrm } from "@/test/crm-fakes/data";
import { startHubSpotFake } from "@/test/crm-fakes/hubspot-fake";
import { startSalesforceFake } from "@/test/crm-fakes/salesforce-fake";

const [vendor, size] = process.argv.slice(2);
const contacts = Number(size);
const server =
  vendor === "salesforce"
    ? await startSalesforceFake(generateCrm("salesforce", { contacts }), {
        clientId: "bench-key",
        clientSecret: "bench-secret-0001",
      })
    : await startHubSpotFake(generateCrm("hubspot", { contacts }), { token: "pat-na1-bench-0001" });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));
