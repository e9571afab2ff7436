import type { TestGateway } from './gateway';

/** The texts an engine was asked to speak, in order, since the last `clear`. */
export interface SpokenTexts {
  readonly texts: string[];
  /** Everything spoken, joined by spaces. */
  joined(): string;
  clear(): void;
}

/**
 * Test support: wraps the adapter of `voice` in an in-process gateway so that every text it is
 * asked to synthesize (alone or in a batch) is recorded, for tests that count what is synthesized again.
 */
export function recordSpoken(gateway: Pick<TestGateway, 'registry'>, voice: string): SpokenTexts {
  const texts: string[] = [];
  const adapter = gateway.registry.resolve({ voice }).adapter;
  const original = adapter.synthesize;
  adapter.synthesize = (request, context) => {
    texts.push(request.text);
    return original.call(adapter, request, context);
  };
  // an engine that takes batches is asked for a unit of sentences in one call
  const batch = adapter.synthesizeBatch;
  if (batch) {
    adapter.synthesizeBatch = (requests, context) => {
      texts.push(...requests.map((request) => request.text));
      return batch.call(adapter, requests, context);
    };
  }
  return { texts, joined: () => texts.join(' '), clear: () => void texts.splice(0) };
}
