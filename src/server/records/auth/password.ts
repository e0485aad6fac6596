import { hash, verify } from "@node-rs/argon2";

/** argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes, 1 lane). */
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

// A real hash to verify against when the email is unknown, so both paths take the same time.
let decoy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hashPassword("decoy-password-never-matches");
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
