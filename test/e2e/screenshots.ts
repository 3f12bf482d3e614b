import path from 'node:path';
import type { Page } from '@playwright/test';
import { violations } from './axe.js';
import { expect } from './fixtures.js';

const SHOTS = path.join('test-results', 'screenshots');

/**
 * Saves the screen under test-results/screenshots/ in both themes (the app follows the OS colour
 * scheme), and checks each with axe: a screen worth a screenshot is one an archivist meets, so it
 * has no WCAG 2.2 A/AA or best-practice violation either (issue 37).
 */
export async function shots(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // The app marks its theme; a plain page (the tokenless one) follows the media query alone.
    if (await page.locator('#root').count()) await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
    expect.soft(await violations(page), `axe violations on ${name} (${scheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
