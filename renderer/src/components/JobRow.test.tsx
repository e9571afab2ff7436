// @vitest-environment happy-dom
/**
 * A job row as the studio shows it, for jobs as the gateway answers them (what the gateway answers
 * for an expiring or a missing file is tested over HTTP in electron/gateway/job-files.test.ts).
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { doneJob } from '../testing/jobs';
import { JobRow } from './JobRow';

afterEach(cleanup);

it('shows when the audio of a done job expires', () => {
  const now = Date.now();
  const job = doneJob({}, now);
  render(<JobRow job={job} now={now} />);
  const expiry = screen.getByText(/^expires /);
  expect(expiry.textContent).toBe('expires tomorrow');
  expect(expiry.getAttribute('datetime')).toBe(job.expires_at);
  expect(screen.getByRole('button', { name: /^Play job/ }).hasAttribute('disabled')).toBe(false);
});

it('says why a done job has no audio, and offers no play or download', () => {
  const message = 'The audio file of job 0b7d5a62 is missing: it was removed outside Orator.';
  const { audio: _gone, ...job } = doneJob({ audio_unavailable: { code: 'audio_missing', message } });
  render(<JobRow job={job} now={Date.now()} />);
  expect(screen.getByRole('note').textContent).toBe(message);
  expect(screen.queryByRole('button', { name: /^Play job/ })).toBeNull();
  expect(screen.queryByRole('button', { name: /^Download job/ })).toBeNull();
  expect(screen.getByRole('button', { name: /^Delete job/ }).hasAttribute('disabled')).toBe(false);
  expect(screen.queryByText(/^expires /)).toBeNull();
});
