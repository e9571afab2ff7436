import type { OratorClient } from '../api/client';
import { describeError } from '../lib/format';
import type { Store } from './types';

/** What a request does with the client. */
export type Work<T> = (client: OratorClient) => Promise<T>;

/**
 * Runs one request of a slice with the client of the moment. Resolves to its result, or to null:
 * without a client; when the client changed meanwhile (a new key: the answer, or the refusal,
 * belongs to the old one, so a late answer never overwrites the new key's); when it failed, its
 * error to `onError` as a sentence (a refused key has already sent the studio to the key prompt:
 * the client's onUnauthorized hook, connection-slice.ts).
 */
export async function request<T>(get: () => Store, work: Work<T>, onError: (message: string) => void): Promise<T | null> {
  const client = get().client;
  if (!client) return null;
  try {
    const result = await work(client);
    return get().client === client ? result : null;
  } catch (error) {
    if (get().client === client) onError(describeError(error));
    return null;
  }
}
