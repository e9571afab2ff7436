// @vitest-environment happy-dom
/** Where the studio streams job audio instead of fetching it whole. */
import { expect, it } from 'vitest';
import { canStreamJobAudio } from './media-auth';

const page = (orator?: Window['orator']) => ({ orator }) as unknown as Window;

it("streams in the desktop app, whose main process adds the key to the gateway's audio requests", async () => {
  const desktop = page({ gatewayUrl: 'http://127.0.0.1:5700/', apiKey: 'k' });
  expect(await canStreamJobAudio({ baseUrl: 'http://127.0.0.1:5700', apiKey: 'k' }, desktop)).toBe(true);
  // A key typed into the prompt for some other gateway gets no help from main.
  expect(await canStreamJobAudio({ baseUrl: 'http://127.0.0.1:5800', apiKey: 'k' }, desktop)).toBe(false);
});

it("in a browser, streams only from the page's own gateway once the service worker is ready", async () => {
  expect(await canStreamJobAudio({ baseUrl: 'http://127.0.0.1:5700', apiKey: 'k' }, page())).toBe(false);
  // No service worker was registered in this test: the file is fetched whole.
  expect(await canStreamJobAudio({ baseUrl: '', apiKey: 'k' }, page())).toBe(false);
});
