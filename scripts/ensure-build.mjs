// `npm start` serves the production build; on a fresh checkout there is none yet, so make it once.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

if (!fs.existsSync(".next/BUILD_ID")) {
  console.error("No production build yet: running `npm run build` once (about half a minute)...");
  const result = spawnSync("npm", ["run", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  process.exit(result.status ?? 1);
}
