import { Type, type Static } from 'typebox';

/** What a client may send as `nonce`: URL-safe characters, long enough to be unpredictable. */
export const NONCE_PATTERN = '^[A-Za-z0-9_-]{16,128}$';

export const WhoAmIQuery = Type.Object({
  nonce: Type.Optional(
    Type.String({
      pattern: NONCE_PATTERN,
      description: 'A fresh random value (16 to 128 characters of A-Z a-z 0-9 - _); the answer then carries `proof`',
    }),
  ),
});
export type WhoAmIQuery = Static<typeof WhoAmIQuery>;

/**
 * What the proof is an HMAC of: the instance id, the port the gateway answers on, and the nonce,
 * joined by colons. A client checks it with the port of the URL it asked: a program on another
 * port that relays the question to a running gateway gets a proof for the gateway's port, which
 * that client refuses.
 */
export function proofMessage(binding: { instance: string; port: number; nonce: string }): string {
  return `${binding.instance}:${binding.port}:${binding.nonce}`;
}

export const WhoAmI = Type.Object({
  server: Type.Literal('orator'),
  version: Type.String({ description: "Orator's version" }),
  instance: Type.String({
    description: 'A random id made at the first start of this data folder: the fingerprint the tray and start-up line show',
  }),
  proof: Type.Optional(
    Type.String({
      description:
        'HMAC-SHA256 with the API key as the HMAC key of "<instance>:<port>:<nonce>" (the port this gateway answers on), base64url without padding; only with `nonce`',
    }),
  ),
});
export type WhoAmI = Static<typeof WhoAmI>;
