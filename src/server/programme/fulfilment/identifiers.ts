import { randomBase62 } from "@/server/ground/platform/random";

/** The 16-character conversion id appended to the destination URL as `sid` (~95 random bits). */
export const SID_LENGTH = 16;
export const SID_PATTERN = /^[0-9A-Za-z]{16}$/;

/** The code printed in a response link, {base_url}/r/{code} (~59 random bits, short for a QR code). */
export const RESPONSE_CODE_LENGTH = 10;
export const RESPONSE_CODE_PATTERN = /^[0-9A-Za-z]{10}$/;

export const newSid = () => randomBase62(SID_LENGTH);
export const newResponseCode = () => randomBase62(RESPONSE_CODE_LENGTH);
