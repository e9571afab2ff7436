import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const box = async (locator: Locator) => (await locator.boundingBox())!;

/** Elements whose text is cut (wider than their box), by a short description of each. */
async function clippedText(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.studio output, .studio .prosody span, .studio label, .topbar *')]
      .filter(
        (e) =>
          e.offsetParent !== null && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible',
      )
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${e.textContent}`),
  );
}

for (const width of [800, 1024, 1440]) {
  for (const theme of ['light', 'dark'] as const) {
    test(`layout holds at ${width} px, ${theme}`, async ({ studio: page, snap }) => {
      await page.setViewportSize({ width, height: 760 });
      await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme);
      const editorCard = page.locator('.studio .card').first();
      const voice = page.getByRole('combobox', { name: 'Voice' });
      await expect(voice).toBeVisible();
      await snap(`layout-${width}-${theme}`);
      expect(inside(await box(voice), await box(editorCard)), 'voice select within its card').toBe(true);
      const reset = page.getByRole('button', { name: /^Reset/ });
      for (const slider of await page.getByRole('slider').all()) {
        if (!(await slider.isVisible())) continue;
        expect(overlap(await box(reset), await box(slider)), 'Reset clear of the sliders').toBe(false);
      }
      expect(await clippedText(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });
  }
}
