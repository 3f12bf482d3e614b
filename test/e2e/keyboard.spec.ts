import type { Locator, Page } from '@playwright/test';
import type { Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
import { expect, ownHarvest, test as shared, type WorkerFixtures } from './fixtures.js';

/** A host of its own (see ownHarvest): the jobs made here stay out of the other files' way. */
const test = shared.extend<{}, WorkerFixtures>({ harvest: ownHarvest() });

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
  await expect(page.getByTestId('job-new')).toBeVisible();

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

test('a whole harvest without the mouse: create, start, pause, resume, browse the copy, export', async ({ page, harvest, site }) => {
  test.setTimeout(180_000);
  await page.goto(harvest.url);
  await expect(page.getByTestId('job-new')).toBeVisible();
  const status = page.getByTestId('job-detail-status');
  const type = async (testId: string, text: string): Promise<void> => {
    await tabTo(page, testId);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(text);
  };

  await test.step('create: n opens the form, Tab walks its fields, Enter on Save', async () => {
    await page.keyboard.press('n');
    await expect(page.getByTestId('job-form')).toBeVisible();
    await expect(page.getByTestId('job-field-name')).toBeFocused();
    await type('job-field-name', 'Typed harvest');
    await type('job-field-seeds', `${site.origin}/`);
    await type('job-field-limits.maxPages', '25');
    await type('job-field-politeness.perHostConnections', '1');
    await type('job-field-politeness.delayMs', '150');
    await tabTo(page, 'job-form-save');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('job-form')).toBeHidden();
    await expect(page.getByTestId('job-name')).toHaveText('Typed harvest');
  });

  await test.step('start, pause and resume with Enter and Space', async () => {
    await tabTo(page, 'job-start');
    await page.keyboard.press('Enter');
    await expect(status).toHaveText(/running/);
    await tabTo(page, 'job-pause');
    await expectFocusRing(page.getByTestId('job-pause'));
    await page.keyboard.press('Space');
    await expect(status).toHaveText(/paused/, { timeout: 30_000 });
    await tabTo(page, 'job-resume');
    await page.keyboard.press('Space');
    await expect(status).toHaveText(/finished/, { timeout: 90_000 });
  });

  await test.step('browse: a page from the list, into the archived page and out again', async () => {
    await tabTo(page, 'job-browse');
    await page.keyboard.press('Enter');
    await tabTo(page, 'page-item');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('viewer-url')).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\//);
    // Tab enters the frame: the archived page's first link has the focus.
    await tabTo(page, 'viewer-frame');
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    await expect.poll(() => frame.evaluate(() => document.activeElement?.tagName)).toBe('A');
    // Shift+Tab from there leaves it, back to the app.
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => focusedId(page)).not.toBe('viewer-frame');
  });

  await test.step('export from the library; Escape closes the dialog on its opener', async () => {
    await tabTo(page, 'nav-library', { back: true });
    await page.keyboard.press('Enter');
    // Tab along the rows' Export buttons to this archive's.
    const exportIt = page.getByRole('row', { name: /Typed harvest/ }).getByTestId('archive-export');
    for (let i = 0; i < 10 && !(await exportIt.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
      await tabTo(page, 'archive-export');
    }
    await expectFocusRing(exportIt);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('export-dialog')).toBeVisible();
    await expect(page.getByTestId('export-format-wacz')).toBeFocused();
    await tabTo(page, 'export-start');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('export-status')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('export-dialog')).toBeHidden();
    await expect(exportIt).toBeFocused();
  });
});
