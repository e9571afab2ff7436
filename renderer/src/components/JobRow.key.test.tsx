// @vitest-environment happy-dom
/** A job row follows the store's client: after the key changes, its download sends the new key. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { useApp } from '../store';
import { doneJob } from '../testing/jobs';
import { JobRow } from './JobRow';

afterEach(cleanup);

const job = doneJob();

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
