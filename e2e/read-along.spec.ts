import { api, expect, finishedJob, test } from './fixtures';
import { dock, playerReady } from './helpers';

const TEXT = [
  'The lighthouse keeper climbed the stairs. The storm rolled in from the west. Rain hit the glass.',
  'Below, the harbour lights flickered. The boats strained against their ropes. Nobody slept that night.',
  'By morning the sea was calm again. The keeper wrote one line in the log. Then he went to sleep.',
].join('\n\n');

interface Timings {
  duration_s: number;
  sentences: { start_s: number; end_s: number; text: string }[];
}

test('read-along: the spoken sentence is highlighted as it plays; a click seeks into that sentence', async ({
  studio: page,
  gateway,
  snap,
}) => {
  const id = await finishedJob(gateway, TEXT);
  const timings = (await (await api(gateway, `/api/v1/tts/jobs/${id}/timings`)).json()) as Timings;
  expect(timings.sentences).toHaveLength(9);

  const row = page.locator(`li.job[data-job-id="${id}"]`);
  await row.getByRole('button', { name: /^Play job/ }).click();
  await playerReady(page);
  const readAlong = dock(page).getByRole('group', { name: /^Read along/ });
  const sentences = readAlong.getByRole('button');
  await expect(sentences).toHaveText(timings.sentences.map((s) => s.text));
  const current = readAlong.locator('[aria-current="true"]');

  // The highlight follows playback: it moves past the first sentence, always onto the one started last.
  await expect.poll(async () => Number(await current.getAttribute('data-index')), { timeout: 20_000 }).toBeGreaterThan(0);
  const time = Number(await dock(page).getAttribute('data-time'));
  const shown = Number(await current.getAttribute('data-index'));
  expect(timings.sentences[shown]!.start_s).toBeLessThanOrEqual(time + 0.3);

  // A click on the seventh sentence plays from within it, and highlights it.
  const target = 6;
  await sentences.nth(target).click();
  await expect(current).toHaveAttribute('data-index', String(target));
  const landed = Number(await dock(page).getAttribute('data-time'));
  expect(landed).toBeGreaterThanOrEqual(timings.sentences[target]!.start_s - 0.1);
  expect(landed).toBeLessThan(timings.sentences[target]!.end_s);
  await expect(sentences.nth(target)).toBeFocused();
  await snap('read-along');

  // Keyboard: arrows move between sentences, Enter seeks to the one focused.
  await page.keyboard.press('ArrowUp');
  await expect(sentences.nth(target - 1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(current).toHaveAttribute('data-index', String(target - 1));
});

test('read-along for an inline take: the highlight moves and a click seeks into the sentence', async ({ studio: page, snap }) => {
  const text = TEXT.split('\n\n').slice(0, 2).join('\n\n');
  await page.getByRole('textbox', { name: 'Text to speak' }).fill(text);
  await expect(page.getByTestId('delivery-hint')).toContainText('Plays at once');
  await page.getByRole('button', { name: 'Synthesize' }).click();
  await playerReady(page);
  await expect(dock(page)).toHaveAttribute('data-mode', 'inline');

  const readAlong = dock(page).getByRole('group', { name: /^Read along/ });
  const sentences = readAlong.getByRole('button');
  await expect(sentences).toHaveCount(6);
  await expect(sentences.nth(3)).toHaveText('Below, the harbour lights flickered.');
  const current = readAlong.locator('[aria-current="true"]');
  await expect.poll(async () => Number(await current.getAttribute('data-index')), { timeout: 20_000 }).toBeGreaterThan(0);
  // the highlight's start first: playing on, the time read after it only grows past it
  const start = Number(await current.getAttribute('data-start'));
  expect(start).toBeLessThanOrEqual(Number(await dock(page).getAttribute('data-time')) + 0.3);

  const target = 4;
  await sentences.nth(target).click();
  await expect(current).toHaveAttribute('data-index', String(target));
  const landed = Number(await dock(page).getAttribute('data-time'));
  expect(landed).toBeGreaterThanOrEqual(Number(await sentences.nth(target).getAttribute('data-start')) - 0.1);
  expect(landed).toBeLessThan(Number(await sentences.nth(target).getAttribute('data-end')));
  await snap('read-along-inline');
});

test('edit one sentence of a finished job: only its chunk is re-rendered, and the player reads the new text', async ({
  studio: page,
  gateway,
  snap,
}) => {
  const id = await finishedJob(gateway, TEXT);
  const before = (await (await api(gateway, `/api/v1/tts/jobs/${id}/timings`)).json()) as Timings;
  await page
    .locator(`li.job[data-job-id="${id}"]`)
    .getByRole('button', { name: /^Play job/ })
    .click();
  const oldDuration = await playerReady(page);
  const readAlong = dock(page).getByRole('group', { name: /^Read along/ });
  await readAlong.getByRole('button').nth(4).click();
  await expect(readAlong.locator('[aria-current="true"]')).toHaveAttribute('data-index', '4');

  await dock(page).getByRole('button', { name: 'Edit sentence' }).click();
  const field = dock(page).getByRole('textbox', { name: 'New text of sentence 5' });
  await expect(field).toHaveValue('The boats strained against their ropes.');
  const edited = 'The small fishing boats strained and creaked against their heavy ropes all night long.';
  await field.fill(edited);
  await dock(page).getByRole('button', { name: 'Re-render' }).click();

  // the player reloads the job: the new sentence in place, the audio longer by what it adds
  await expect(readAlong.getByRole('button').nth(4)).toHaveText(edited, { timeout: 30_000 });
  const newDuration = await playerReady(page);
  const after = (await (await api(gateway, `/api/v1/tts/jobs/${id}/timings`)).json()) as Timings;
  expect(newDuration).toBeGreaterThan(oldDuration + 1);
  expect(after.duration_s - before.duration_s).toBeCloseTo(newDuration - oldDuration, 1);
  expect(after.sentences.map((s) => s.text)).toEqual(before.sentences.map((s, i) => (i === 4 ? edited : s.text)));
  await snap('read-along-edited');
});
