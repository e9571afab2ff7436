// @vitest-environment happy-dom
/** A job row follows the store's client: after the key changes, its download sends the new key. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { Job } from '../api/contract';
import { useApp } from '../store';
import { JobRow } from './JobRow';

afterEach(cleanup);

const job: Job = {
  job_id: '0b7d5a62-6f1c-4a43-9a55-3b0f5d1f0c11',
  title: 'Chapter One',
  status: 'done',
  progress: { done: 1, total: 1 },
  engine: 'espeak-ng',
  voice: 'espeak-ng:en-us',
  characters: 40,
  format: 'wav',
  keep_wav: false,
  created_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:05.000Z',
  audio: {
    url: '/api/v1/tts/jobs/0b7d5a62-6f1c-4a43-9a55-3b0f5d1f0c11/audio',
    format: 'wav',
    content_type: 'audio/wav',
    duration_s: 2,
    bytes: 44,
    formats: ['wav'],
  },
  revision: 3,
};

it('downloads with the key the studio holds now, not the one it held when the row was drawn', async () => {
  const keysSent: string[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = String(input);
    if (url.endsWith('/engines')) return Response.json({ engines: [] });
    if (url.endsWith('/audio')) {
      keysSent.push(new Headers(init?.headers).get('authorization') ?? '');
      return new Response(new Uint8Array(44), { headers: { 'content-type': 'audio/wav' } });
    }
    return Response.json({ error: { code: 'not_found', message: 'not needed here' } }, { status: 404 });
  };
  await useApp.getState().connect({ baseUrl: 'http://127.0.0.1:1', apiKey: 'old-key' }, fetchImpl);
  render(<JobRow job={job} now={Date.now()} />);
  await act(() => useApp.getState().connect({ baseUrl: 'http://127.0.0.1:1', apiKey: 'new-key' }, fetchImpl));
  fireEvent.click(screen.getByRole('button', { name: /^Download job/ }));
  await expect.poll(() => keysSent).toEqual(['Bearer new-key']);
});
