import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { open, seal } from "@/server/ground/platform/secret-box";

/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A new signing secret in the Standard Webhooks form: whsec_ and 32 random bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** Sealed at rest (AES-256-GCM under the service's key, bound to the endpoint's row). */
export const sealSecret = (secret: string, endpointId: string) => seal(secret, `webhook:${endpointId}`);
const openSecret = (sealed: string, endpointId: string) => open<string>(sealed, `webhook:${endpointId}`).value;

export interface SigningEndpoint {
  id: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets that sign a message now: the current one, and the one before it for a day after a rotation. */
export function signingSecrets(endpoint: SigningEndpoint, now: Date): string[] {
  const secrets = [openSecret(endpoint.secretSealed, endpoint.id)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(openSecret(endpoint.previousSecretSealed, endpoint.id));
  }
  return secrets;
}

/** The three Standard Webhooks headers; with two secrets, `webhook-signature` carries both signatures. */
export function signedHeaders(secrets: string[], msgId: string, at: Date, body: string): Record<string, string> {
  const signature = secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(" ");
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}
