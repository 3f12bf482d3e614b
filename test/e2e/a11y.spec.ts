import type { Page } from '@playwright/test';
import type { CaptureSummary } from '../../shared/captures.js';
import { expectAccessible } from './axe.js';
import { expect, ownHarvest, test as shared, type WorkerFixtures } from './fixtures.js';

/** A host of its own (see ownHarvest): the jobs made here stay out of the other files' way. */
const test = shared.extend<{}, WorkerFixtures>({ harvest: ownHarvest() });

/**
 * Issue 37: axe finds no WCAG 2.2 A/AA or best-practice violation on any screen or state an
 * archivist meets, in the light and the dark theme, at 1400×900: the jobs list empty and full, the
 * job form with errors, a job new, running, paused and finished, the URL log and a URL's detail,
 * the schedule, the library with its captures and change report, the export dialog, the metadata
 * editor, the viewer and its not-in-archive page, search with hits and with none, the QA report,
 * settings, help and the confirmation dialogs.
 */

const status = (page: Page) => page.getByTestId('job-detail-status');

test('every screen passes axe in both themes', async ({ page, harvest, site, api }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(harvest.url);
  await expect(page.getByTestId('jobs-empty')).toBeVisible();
  await expectAccessible(page, 'jobs, empty');

  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-contact')).toBeEnabled();
  await expectAccessible(page, 'settings');
  await page.getByTestId('settings-cancel').click();

  await page.getByTestId('nav-help').click();
  await expect(page.getByTestId('shortcuts-help')).toBeVisible();
  await expectAccessible(page, 'help');
  await page.keyboard.press('Escape');

  await page.getByTestId('job-new').click();
  await page.getByTestId('job-field-name').fill('Bench site');
  await page.getByTestId('job-field-seeds').fill('not a url');
  await page.getByTestId('job-form-save').click();
  await expect(page.getByTestId('job-field-seeds-issues')).toBeVisible();
  await expectAccessible(page, 'new job form with errors');
  await page.getByTestId('job-field-seeds').fill(`${site.origin}/`);
  // Slow enough to be caught running and paused; small enough to finish soon after.
  await page.getByTestId('job-field-limits.maxPages').fill('30');
  await page.getByTestId('job-field-politeness.perHostConnections').fill('1');
  await page.getByTestId('job-field-politeness.delayMs').fill('150');
  await page.getByTestId('job-form-save').click();
  await expect(page.getByTestId('job-form')).toBeHidden();
  const row = page.getByTestId('job-row');
  const jobId = (await row.getAttribute('data-job-id'))!;
  await row.click();
  await expectAccessible(page, 'jobs, a new job');

  await page.getByTestId('job-start').click();
  await expect(status(page)).toHaveText(/running/);
  await expect(page.getByTestId('progress-eta')).toContainText(/left/, { timeout: 30_000 });
  await expectAccessible(page, 'job running');

  await page.getByTestId('job-pause').click();
  await expect(status(page)).toHaveText(/paused/, { timeout: 30_000 });
  await expectAccessible(page, 'job paused');
  await page.getByTestId('job-cancel').click();
  await expect(page.getByTestId('job-cancel-confirm')).toBeVisible();
  await expectAccessible(page, 'cancel confirmation');
  await page.getByTestId('job-cancel-confirm-cancel').click();

  await page.getByTestId('job-resume').click();
  await expect(status(page)).toHaveText(/finished/, { timeout: 90_000 });
  await expect(page.getByTestId('job-summary')).toBeVisible();
  await expect(page.getByTestId('url-row').first()).toBeVisible();
  await expectAccessible(page, 'job finished: summary and URL log');

  await page.getByTestId('url-row').first().click();
  await expect(page.getByTestId('url-detail')).toBeVisible();
  await expectAccessible(page, 'URL detail');
  await page.getByTestId('url-detail-close').click();

  // Before Run again: the first capture's page limit leaves links to the live site, which lead to "not in this archive".
  await page.getByTestId('job-browse').click();
  const urlBar = page.getByTestId('viewer-url');
  await urlBar.fill(`${site.origin}/`);
  await urlBar.press('Enter');
  await expect(page.getByTestId('viewer-banner')).toContainText(/captured/);
  await expectAccessible(page, 'viewer');
  const frame = page.frameLocator('[data-testid="viewer-frame"]');
  await frame.locator(`a[href^="${site.origin}/"]`).first().click();
  await expect(page.getByTestId('not-in-archive')).toBeVisible();
  await expectAccessible(page, 'viewer, not in this archive');
  await page.getByTestId('nav-jobs').click();

  await page.getByTestId('schedule-edit').click();
  await page.getByTestId('schedule-every').fill('1');
  await page.getByTestId('schedule-unit').selectOption('weeks');
  await page.getByTestId('schedule-at').fill('03:00');
  await page.getByTestId('schedule-from').fill('2030-01-07');
  await expectAccessible(page, 'schedule form');
  await page.getByTestId('schedule-save').click();
  await expect(page.getByTestId('schedule-next')).toBeVisible();
  await expectAccessible(page, 'schedule');

  await page.getByTestId('job-run-again').click();
  await expect
    .poll(async () => {
      const r = await api<CaptureSummary[]>('archives.captures', { id: jobId });
      return r.ok ? r.value.map((c) => c.state).join(', ') : r.error.message;
    }, { timeout: 120_000 })
    .toBe('finished, finished');

  await page.getByTestId('nav-library').click();
  const archive = page.locator(`[data-testid="archive-row"][data-job-id="${jobId}"]`);
  await expect(archive).toBeVisible();
  await expectAccessible(page, 'library');
  await archive.getByTestId('archive-captures').click();
  await expect(page.getByTestId('capture-row')).toHaveCount(2);
  await expectAccessible(page, 'library, captures');
  await page.getByTestId('capture-row').first().getByTestId('capture-changes').click();
  await expect(page.getByTestId('change-report')).toBeVisible();
  await expectAccessible(page, 'change report');
  await page.getByTestId('change-report-close').click();

  await archive.getByTestId('archive-export').click();
  await page.getByTestId('export-format-wacz').check();
  await expectAccessible(page, 'export dialog');
  await page.getByTestId('export-start').click();
  await expect(page.getByTestId('export-status')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expectAccessible(page, 'export dialog, done');
  await page.getByTestId('export-close').click();

  await archive.getByTestId('archive-metadata').click();
  await expect(page.getByTestId('metadata-save')).toBeEnabled();
  await page.getByTestId('metadata-date').fill('last spring');
  await page.getByTestId('metadata-save').click();
  await expect(page.getByTestId('metadata-date-issues')).toBeVisible();
  await expectAccessible(page, 'metadata editor with errors');
  await page.getByTestId('metadata-cancel').click();

  await archive.getByTestId('archive-delete').click();
  await expect(page.getByTestId('archive-delete-keep')).toBeChecked();
  await expectAccessible(page, 'delete archive dialog');
  await page.keyboard.press('Escape');

  await page.getByTestId('nav-search').click();
  await page.getByTestId('search-input').fill('library');
  await page.getByTestId('search-input').press('Enter');
  await expect(page.getByTestId('search-hit').first()).toBeVisible();
  await expectAccessible(page, 'search with hits');
  await page.getByTestId('search-input').fill('zqxjvwk');
  await page.getByTestId('search-input').press('Enter');
  await expect(page.getByTestId('search-total')).toContainText(/No page matches/);
  await expectAccessible(page, 'search with no hits');

  await page.getByTestId('nav-report').click();
  await expect(page.getByTestId('report-name')).toBeVisible();
  await expectAccessible(page, 'QA report');

  await page.getByTestId('nav-jobs').click();
  await page.getByTestId('job-row').first().click();
  await page.getByTestId('job-delete').click();
  await expectAccessible(page, 'delete job confirmation');
  await page.keyboard.press('Escape');
  await expectAccessible(page, 'jobs, full');
});

/**
 * What sticks out sideways on the page as it is: the page's own horizontal scrolling, and any
 * visible control past the window's right edge that no scrolling container of its own holds.
 */
async function sideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${width}`);
    const scrolls = (el: Element | null): boolean => {
      for (let e = el?.parentElement ?? null; e; e = e.parentElement) if (/auto|scroll/.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth) return true;
      return false;
    };
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href]'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('.sr-only, .skip-link')) continue;
      if ((r.left < 0 || r.right > width + 1) && !scrolls(el)) out.push(`${el.dataset.testid ?? el.tagName} at ${Math.round(r.left)}–${Math.round(r.right)} px`);
    }
    return out;
  });
}

test('at 320 CSS px and at 200% zoom nothing scrolls sideways and no control is cut off (WCAG 1.4.10)', async ({ page, harvest, site, api }) => {
  test.setTimeout(150_000);
  await page.goto(harvest.url);
  const created = await api<{ id: string }>('jobs.create', { job: { name: 'Narrow window', seeds: [`${site.origin}/`], limits: { maxPages: 10 }, politeness: { delayMs: 0 } } });
  if (!created.ok) throw new Error(created.error.message);
  await api('jobs.start', { id: created.value.id });
  await expect
    .poll(async () => {
      const r = await api<{ id: string; status: string }[]>('jobs.list');
      return r.ok ? r.value.find((j) => j.id === created.value.id)?.status : null;
    }, { timeout: 60_000 })
    .toBe('finished');
  await page.reload();

  // 1400×900 at 200% zoom lays out as 700×450 CSS px; a phone held upright as 320 CSS px.
  for (const [label, viewport] of [['zoom200', { width: 700, height: 450 }], ['320px', { width: 320, height: 640 }]] as const) {
    await page.setViewportSize(viewport);
    const check = async (screen: string): Promise<void> => {
      await page.screenshot({ path: `test-results/screenshots/${label}-${screen}.png`, fullPage: true });
      expect.soft(await sideways(page), `${screen} at ${label}`).toEqual([]);
    };
    await page.getByTestId('nav-jobs').click();
    await page.getByTestId('job-row').first().click();
    await expect(page.getByTestId('job-summary')).toBeVisible();
    await check('job-finished');
    await page.getByTestId('job-new').click();
    await check('job-form');
    await page.getByTestId('job-form-cancel').click();
    await page.getByTestId('nav-settings').click();
    await check('settings');
    await page.keyboard.press('Escape');
    await page.getByTestId('nav-library').click();
    await check('library');
    await page.getByTestId('archive-export').first().click();
    await check('export-dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('archive-open').first().click();
    await expect(page.getByTestId('viewer-frame')).toBeVisible();
    await check('viewer');
    await page.getByTestId('nav-search').click();
    await check('search');
    await page.getByTestId('nav-report').click();
    await check('report');
  }
});
