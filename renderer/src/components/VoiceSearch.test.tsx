// @vitest-environment happy-dom
/** The compare voice picker over the voices of a real gateway: its quality filter. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../electron/testing/gateway';
import type { EngineDetail, EngineList, Voice } from '../api/contract';
import { useApp } from '../store';
import { VoiceSearch } from './VoiceSearch';

let gateway: TestGateway;
let byId: Map<string, Voice>;

beforeAll(async () => {
  gateway = await startTestGateway();
  // happy-dom's fetch keeps the same-origin rule: the page is the gateway's, as the web studio is
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${gateway.url}/`);
  const { engines } = (await (await gateway.api('/api/v1/tts/engines')).json()) as EngineList;
  const available = engines.filter((e) => e.available);
  const details = await Promise.all(
    available.map(async (e) => (await (await gateway.api(`/api/v1/tts/engines/${e.id}`)).json()) as EngineDetail),
  );
  const voices = Object.fromEntries(details.map((d) => [d.id, d.voices]));
  byId = new Map(details.flatMap((d) => d.voices.map((v) => [v.id, v] as const)));
  useApp.setState({ engines: available, voices, favourites: [], compareVoices: [] });
});
afterAll(() => gateway.stop());
afterEach(cleanup);

/** The voices the picker lists now, as their contract entries. */
const listed = () =>
  within(screen.getByRole('list', { name: 'Matching voices' }))
    .getAllByRole('listitem')
    .map((item) => byId.get(item.getAttribute('data-voice')!)!);

it('lists only the voices of the quality chosen, and all of them again with any', () => {
  render(<VoiceSearch />);
  const all = listed();
  const tiers = new Set([...byId.values()].flatMap((v) => (v.quality ? [v.quality] : [])));
  // the machine's engines span at least two tiers (eSpeak NG is low, SVOX Pico medium)
  expect(tiers.size).toBeGreaterThan(1);
  for (const tier of tiers) {
    fireEvent.change(screen.getByRole('combobox', { name: 'Quality' }), { target: { value: tier } });
    const shown = listed();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((v) => v.quality === tier)).toBe(true);
  }
  fireEvent.change(screen.getByRole('combobox', { name: 'Quality' }), { target: { value: '' } });
  expect(listed()).toHaveLength(all.length);
});
