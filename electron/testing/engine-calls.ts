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
 * asked to synthesize is recorded, for tests that count what is synthesized again.
 */
export function recordSpoken(gateway: Pick<TestGateway, 'registry'>, voice: string): SpokenTexts {
  const texts: string[] = [];
  const adapter = gateway.registry.resolve({ voice }).adapter;
  const original = adapter.synthesize;
  adapter.synthesize = (request, context) => {
    texts.push(request.text);
    return original.call(adapter, request, context);
  };
  return { texts, joined: () => texts.join(' '), clear: () => void texts.splice(0) };
}
