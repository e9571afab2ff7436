// @vitest-environment happy-dom
/** A job row as the studio shows it, for jobs of a real gateway (with a retention period). */
import { cleanup, render, screen } from '@testing-library/react';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTestGateway, waitForJob, type TestGateway } from '../../../electron/testing/gateway';
import type { Job } from '../api/contract';
import { JobRow } from './JobRow';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway({ retentionHours: 24 });
  // happy-dom's fetch keeps the same-origin rule: the page is the gateway's, as the web studio is
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${gateway.url}/`);
});
afterAll(() => gateway.stop());
afterEach(cleanup);

async function finishedJob(text: string): Promise<Job> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
  const { job_id } = (await response.json()) as { job_id: string };
  await waitForJob(gateway, job_id);
  return (await (await gateway.api(`/api/v1/tts/jobs/${job_id}`)).json()) as Job;
}

it('shows when the audio of a done job expires', async () => {
  const job = await finishedJob('Kept for a day.');
  render(<JobRow job={job} now={Date.now()} />);
  const expiry = screen.getByText(/^expires /);
  expect(expiry.textContent).toBe('expires tomorrow');
  expect(expiry.getAttribute('datetime')).toBe(job.expires_at);
  expect(screen.getByRole('button', { name: /^Play job/ })).toBeTruthy();
});

it('says why a done job has no audio, and offers no play or download', async () => {
  const { job_id } = await finishedJob('Its file will be removed.');
  await rm(path.join(gateway.dataDir, 'audio', `${job_id}.wav`));
  const job = (await (await gateway.api(`/api/v1/tts/jobs/${job_id}`)).json()) as Job;
  render(<JobRow job={job} now={Date.now()} />);
  expect(screen.getByRole('note').textContent).toContain('removed outside Orator');
  expect(screen.queryByRole('button', { name: /^Play job/ })).toBeNull();
  expect(screen.queryByRole('button', { name: /^Download job/ })).toBeNull();
  expect(screen.getByRole('button', { name: /^Delete job/ })).toBeTruthy();
  expect(screen.queryByText(/^expires /)).toBeNull();
});
