import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** The rules that only colours decide: all another theme can change. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe-core's serious and critical findings on the page as it is, one line each: of every rule, or
 * of the rules about colours only (`colours`, for a page already checked in another theme).
 */
export async function seriousViolations(page: Page, rules: 'all' | 'colours' = 'all'): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  const { violations } = await (rules === 'all' ? axe.withTags(AXE_TAGS) : axe.withRules(COLOUR_RULES)).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`));
}

export const dock = (page: Page): Locator => page.getByRole('contentinfo', { name: 'Player' });

/** Waits until the player has loaded something with a duration, and returns that duration. */
export async function playerReady(page: Page): Promise<number> {
  await expect(dock(page)).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect.poll(async () => Number(await dock(page).getAttribute('data-duration'))).toBeGreaterThan(0);
  return Number(await dock(page).getAttribute('data-duration'));
}

/** Playback is real: the position advances past `seconds`. */
export async function expectTimeAdvances(page: Page, seconds = 0.3): Promise<void> {
  await expect.poll(async () => Number(await dock(page).getAttribute('data-time')), { timeout: 15_000 }).toBeGreaterThan(seconds);
}

/** Prose long enough to become a job: distinct sentences so chunking has real boundaries. */
export function longText(characters: number): string {
  const sentences = [
    'The lighthouse keeper climbed the spiral stairs as the storm rolled in from the west.',
    'Below, the harbour lights flickered and the fishing boats strained against their ropes.',
    'She trimmed the wick, wound the clockwork, and watched the beam sweep across the water.',
    'Somewhere beyond the breakers a bell rang twice, then fell silent for a long while.',
  ];
  let text = '';
  for (let i = 0; text.length < characters; i++) {
    text += `${sentences[i % sentences.length]} `;
    if (i % 8 === 7) text += '\n\n';
  }
  return text.slice(0, characters);
}

/** Adds a voice to the compare session by its id, through the searchable picker. */
export async function addCompareVoice(page: Page, voice: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search voices' }).fill(voice);
  await page
    .getByRole('list', { name: 'Matching voices' })
    .locator(`li[data-voice="${voice}"]`)
    .getByRole('button', { name: /^Add / })
    .click();
}
