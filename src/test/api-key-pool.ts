import type { ApiKeyScope, PrismaClient } from "@/generated/prisma/client";
import { displayStart, hashApiKey } from "@/server/records/api-keys/secret";
import { randomBase62 } from "@/server/ground/platform/random";

/**
 * Inserts `count` working keys straight into a database under test (e2e suites, benchmarks), so
 * load can be spread over many keys without meeting the per-key rate limit. Returns the secrets.
 */
export async function insertKeyPool(
  prisma: PrismaClient,
  params: { workspaceId: string; count: number; scopes: ApiKeyScope[]; namePrefix: string; revoked?: boolean },
): Promise<string[]> {
  const secrets = Array.from({ length: params.count }, () => `dmk_${randomBase62(32)}`);
  await prisma.apiKey.createMany({
    data: secrets.map((secret, i) => ({
      workspaceId: params.workspaceId,
      name: `${params.namePrefix} ${i}`,
      hash: hashApiKey(secret),
      start: displayStart(secret),
      scopes: params.scopes,
      revokedAt: params.revoked ? new Date() : null,
    })),
  });
  return secrets;
}
