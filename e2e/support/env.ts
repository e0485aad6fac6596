import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const artifactsDir = path.resolve("e2e/.artifacts");
export const demoFile = path.join(artifactsDir, "demo.json");
export const screenshotsDir = path.join(artifactsDir, "screenshots");
/** Where the server under test writes each 5xx it answers (SERVER_ERROR_LOG); a run must leave it empty. */
export const serverErrorLog = path.join(artifactsDir, "server-errors.jsonl");
/** Where the CRM spec runs its local HubSpot; the server under test is pointed at it (CRM_TEST_HUBSPOT_BASE_URL). */
export const E2E_HUBSPOT_FAKE_PORT = Number(process.env.E2E_HUBSPOT_FAKE_PORT ?? E2E_PORT + 40);
/** The Lob spec's local fake listens here; the server's LOB_API_URL names it. */
export const E2E_LOB_FAKE_PORT = Number(process.env.E2E_LOB_FAKE_PORT ?? E2E_PORT + 41);
