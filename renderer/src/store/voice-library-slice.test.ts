// @vitest-environment happy-dom
/**
 * Install events patch the library in place: the voice they name, and the speakers of a model (which
 * install as that model), but not a voice that merely requires a component (Matcha and its vocoder).
 */
import { expect, it } from 'vitest';
import type { LibraryVoice } from '../api/contract';
import { createAppStore } from './index';

const entry = (id: string, engine: string, requires?: string[]): LibraryVoice => ({
  id,
  engine,
  name: id,
  language: 'en-US',
  quality: 'high',
  speakers: 1,
  size_bytes: 100,
  license: { id: 'Apache-2.0', url: 'https://example.invalid/LICENSE', accept_required: false },
  pinned: true,
  verification: 'catalog',
  state: 'available',
  ...(requires ? { requires } : {}),
});

const catalog = { url: 'http://mirror.invalid/catalog.json', ref: null, updated_at: '2026-01-01T00:00:00.000Z' };

it('moves a model and its speakers with its progress, and leaves a voice that only needs a component', () => {
  const store = createAppStore();
  const voices = [
    entry('kokoro-en', 'kokoro'),
    entry('kokoro-en-af_bella', 'kokoro', ['kokoro-en']),
    entry('vocos', 'component'),
    entry('matcha-en', 'matcha', ['vocos']),
  ];
  store.setState({ library: { catalog, voices } });
  const state = (id: string) => {
    const { state, bytes_done, bytes_total } = store.getState().library!.voices.find((v) => v.id === id)!;
    return { state, bytes_done, bytes_total };
  };

  store
    .getState()
    .applyVoiceEvent({ type: 'voice-progress', voice: { ...voices[0]!, state: 'installing', bytes_done: 10, bytes_total: 100 } });
  expect(state('kokoro-en')).toEqual({ state: 'installing', bytes_done: 10, bytes_total: 100 });
  expect(state('kokoro-en-af_bella')).toEqual({ state: 'installing', bytes_done: 10, bytes_total: 100 });

  store.getState().applyVoiceEvent({ type: 'voice-progress', voice: { ...voices[2]!, state: 'queued', bytes_done: 0, bytes_total: 50 } });
  expect(state('vocos')).toEqual({ state: 'queued', bytes_done: 0, bytes_total: 50 });
  expect(state('matcha-en')).toEqual({ state: 'available', bytes_done: undefined, bytes_total: undefined });

  // cancelled: back to available, the bar gone
  store.getState().applyVoiceEvent({ type: 'voice-progress', voice: voices[0]! });
  expect(state('kokoro-en-af_bella')).toEqual({ state: 'available', bytes_done: undefined, bytes_total: undefined });
});

it('ignores events until the library has been read', () => {
  const store = createAppStore();
  store.getState().applyVoiceEvent({ type: 'voice-installed', voice: entry('kokoro-en', 'kokoro') });
  expect(store.getState().library).toBeNull();
});
