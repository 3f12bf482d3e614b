import type { Locator, Page } from '@playwright/test';
import type { JobSummary, Reply } from '../../shared/contract.js';
import { expect, test } from './fixtures.js';

/**
 * Issue 37, by keyboard alone: the skip link, dialogs that take the focus, keep it (Tab and
 * Shift+Tab cycle inside), close on Escape and give it back, the jobs list and the URL log moved
 * through with the arrows, a visible focus ring throughout, and a whole harvest (create, start,
 * pause, resume, browse, export) without the mouse.
 */

/** The data-testid of the focused element, or its tag when it has none. */
const focusedId = (page: Page): Promise<string> => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');

/** Presses Tab (or Shift+Tab) until the element with that test id has the focus, as a keyboard user would. */
async function tabTo(page: Page, testId: string, { back = false, max = 80 } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focusedId(page)) === testId) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${max} presses of ${back ? 'Shift+Tab' : 'Tab'} did not reach ${testId} (at ${await focusedId(page)})`);
}

/** The focused element shows a focus ring: an outline at least 2 px wide (WCAG 2.4.7, 2.4.13). */
async function expectFocusRing(locator: Locator): Promise<void> {
  await expect(locator).toBeFocused();
  const ring = await locator.evaluate((el) => {
    const s = getComputedStyle(el);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
  });
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThanOrEqual(2);
}

function must<T>(r: Reply<T>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('the skip link, and dialogs that take the focus, keep it, close on Escape and give it back', async ({ page, harvest }) => {
  await page.goto(harvest.url);
  await expect(page.getByTestId('jobs-empty')).toBeVisible();

  await test.step('the first Tab stop skips to the screen', async () => {
    await page.keyboard.press('Tab');
    const skip = page.getByTestId('skip-link');
    await expectFocusRing(skip);
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('job-new')).toBeFocused();
  });

  await test.step('Settings: the field has the focus, Tab stays inside, Escape closes and returns the focus', async () => {
    await tabTo(page, 'nav-settings', { back: true });
    await expectFocusRing(page.getByTestId('nav-settings'));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('settings-contact')).toBeFocused();
    for (const next of ['settings-cancel', 'settings-save', 'settings-contact']) {
      await page.keyboard.press('Tab');
      await expect(page.getByTestId(next)).toBeFocused();
    }
    await page.keyboard.press('Shift+Tab');
    await expectFocusRing(page.getByTestId('settings-save'));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('settings')).toBeHidden();
    await expect(page.getByTestId('nav-settings')).toBeFocused();
  });

  await test.step('Help: ? opens it on Close, Tab stays inside, Escape returns the focus', async () => {
    await page.keyboard.press('?');
    await expect(page.getByTestId('help-close')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('ping-measure')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('help-close')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('shortcuts-help')).toBeHidden();
    await expect(page.getByTestId('nav-settings')).toBeFocused();
    // Enter on the focused Close closes it too.
    await page.keyboard.press('?');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('shortcuts-help')).toBeHidden();
  });
});

test('the jobs list by arrows, a confirmation by keyboard, the URL log as a grid', async ({ page, harvest, site, api }) => {
  test.setTimeout(120_000);
  await page.goto(harvest.url);
  const first = must(await api<JobSummary>('jobs.create', { job: { name: 'Keyboard one', seeds: [`${site.origin}/`], limits: { maxPages: 5 }, politeness: { delayMs: 0 } } }));
  must(await api<JobSummary>('jobs.create', { job: { name: 'Keyboard two', seeds: [`${site.origin}/`] } }));
  must(await api('jobs.start', { id: first.id }));
  await expect
    .poll(async () => must(await api<JobSummary[]>('jobs.list')).find((j) => j.id === first.id)?.status, { timeout: 60_000 })
    .toBe('finished');
  await page.reload();

  const list = page.getByRole('listbox', { name: 'Jobs' });
  await test.step('one Tab stop for the list; the arrows select', async () => {
    await tabTo(page, 'UL');
    await expectFocusRing(list);
    await page.keyboard.press('ArrowDown');
    const firstRow = page.getByRole('option').first();
    await expect(firstRow).toBeFocused();
    await expect(firstRow).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Home');
    await expect(firstRow).toHaveAttribute('aria-selected', 'true');
    await expect(list).toHaveAttribute('tabindex', '-1');
    await expect(firstRow).toHaveAttribute('tabindex', '0');
  });

  await test.step('the arrows reach the finished job', async () => {
    for (let i = 0; i < 2 && (await page.getByTestId('job-name').textContent()) !== 'Keyboard one'; i++) await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('job-name')).toHaveText('Keyboard one');
    await expect(page.getByTestId('job-detail-status')).toHaveText('finished');
  });

  await test.step('a confirmation starts on the way out, keeps the focus and gives it back', async () => {
    await tabTo(page, 'job-delete');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toBeVisible();
    const cancel = confirm.getByRole('button').first();
    await expect(cancel).toBeFocused();
    const ok = confirm.getByRole('button').last();
    await page.keyboard.press('Tab');
    await expect(ok).toBeFocused();
    // From the last control Tab wraps to the first (the "delete the archive too" box), Shift+Tab back.
    await page.keyboard.press('Tab');
    await expect(confirm.getByRole('checkbox')).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(ok).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('job-delete')).toBeFocused();
  });

  await test.step('the URL log is a grid with its row count; arrows move, Enter opens, Escape returns', async () => {
    const grid = page.getByRole('grid', { name: 'URLs' });
    const total = Number(await grid.getAttribute('aria-rowcount')) - 1;
    expect(total).toBeGreaterThan(2);
    await expect(page.getByTestId('url-row').first()).toHaveAttribute('aria-rowindex', '2');
    await tabTo(page, 'url-row');
    const row = (i: number) => page.locator(`[data-testid="url-row"][data-index="${i}"]`);
    await expectFocusRing(row(0));
    await page.keyboard.press('ArrowDown');
    await expect(row(1)).toBeFocused();
    await page.keyboard.press('End');
    await expect(row(total - 1)).toBeFocused();
    await page.keyboard.press('Home');
    await expect(row(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('url-detail')).toBeVisible();
    await expect(page.getByTestId('url-detail-close')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('url-detail')).toBeHidden();
    await expect(row(1)).toBeFocused();
  });
});
