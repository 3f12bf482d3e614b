import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ArchiveSummary, PageRow } from '../../shared/appViews.js';
import type { CrawlStats } from '../../shared/crawl.js';
import { expect, test } from './fixtures.js';

const SHOTS = path.join('test-results', 'screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** A stat as the UI formats it ("1,234") as a number. */
async function statOf(locator: Locator): Promise<number> {
  const text = (await locator.textContent()) ?? '';
  const n = Number(text.replace(/[^\d.]/g, ''));
  if (text.trim() === '' || Number.isNaN(n)) throw new Error(`not a number: ${JSON.stringify(text)}`);
  return n;
}

test('an archivist crawls the bench site, watches it, browses the copy and exports it, all on 127.0.0.1', async ({ page, harvest, site, api, offsiteRequests }) => {
  test.setTimeout(150_000);
  await page.goto(harvest.url);
  await expect(page.getByTestId('jobs-empty')).toBeVisible();
  await shot(page, 'jobs-list-empty');

  await test.step('the job form validates a bad seed, then saves', async () => {
    await page.getByTestId('job-new').click();
    const form = page.getByTestId('job-form');
    await expect(form).toBeVisible();
    await page.getByTestId('job-field-name').fill('Bench site');
    await page.getByTestId('job-field-seeds').fill('not a url');
    await page.getByTestId('job-form-save').click();
    await expect(page.getByTestId('job-field-seeds-issues')).toBeVisible();
    await expect(page.getByTestId('job-field-seeds-issues')).toContainText(/url|http/i);
    await shot(page, 'job-form-validation');
    await page.getByTestId('job-field-seeds').fill(`${site.origin}/`);
    await page.getByTestId('job-field-politeness.perHostConnections').fill('2');
    // A small per-request delay keeps the crawl running long enough to pause it mid-way.
    await page.getByTestId('job-field-politeness.delayMs').fill('5');
    await page.getByTestId('job-form-save').click();
    await expect(form).toBeHidden();
    await expect(page.getByTestId('job-row')).toHaveCount(1);
  });
  const jobId = (await page.getByTestId('job-row').getAttribute('data-job-id'))!;
  await page.getByTestId('job-row').click();
  const fetched = page.getByTestId('stat-fetched');
  const status = page.getByTestId('job-detail-status');

  await test.step('start: progress numbers move', async () => {
    await page.getByTestId('job-start').click();
    await expect(status).toHaveText(/running/i);
    await expect.poll(() => statOf(fetched)).toBeGreaterThan(0);
    const first = await statOf(fetched);
    await expect.poll(() => statOf(fetched)).toBeGreaterThan(first);
    await expect(page.getByTestId('progress-bar')).toBeVisible();
    await shot(page, 'progress-running');
  });

  await test.step('pause: the numbers stop; resume: the crawl finishes', async () => {
    await page.getByTestId('job-pause').click();
    // 'pausing' lasts until in-flight work settles and the archive checkpoints: seconds on a busy machine.
    await expect(status).toHaveText(/paused/i, { timeout: 30_000 });
    const atPause = await statOf(fetched);
    await page.waitForTimeout(1500);
    expect(await statOf(fetched)).toBe(atPause);
    await shot(page, 'progress-paused');
    await page.getByTestId('job-resume').click();
    await expect(status).toHaveText(/finished/i, { timeout: 90_000 });
    expect(await statOf(fetched)).toBeGreaterThan(atPause);
  });

  await test.step("the UI's numbers equal the engine's stats", async () => {
    const stats = await api<CrawlStats>('jobs.stats', { id: jobId });
    if (!stats.ok) throw new Error(stats.error.message);
    const c = stats.value.counts;
    await expect.poll(() => statOf(fetched)).toBe(c.archived + c.redirects + c.httpErrors + c.failed);
    expect(await statOf(page.getByTestId('stat-archived'))).toBe(c.archived);
    expect(await statOf(page.getByTestId('stat-queued'))).toBe(c.queued + c.inFlight);
    expect(await statOf(page.getByTestId('stat-http-errors'))).toBe(c.httpErrors);
    expect(await statOf(page.getByTestId('stat-failed'))).toBe(c.failed);
    expect(c.archived).toBeGreaterThan(100);
  });

  await test.step('the URL log shows rows, filters by state and searches', async () => {
    const rows = page.getByTestId('url-row');
    await expect(rows.first()).toBeVisible();
    await page.getByTestId('url-log-state').selectOption('archived');
    await expect
      .poll(async () => {
        const states = await rows.locator('.url-state').allTextContents();
        return states.length > 0 && states.every((s) => s === 'archived');
      })
      .toBe(true);
    const needle = site.manifest.pages[3]!.url;
    await page.getByTestId('url-log-search').fill(needle);
    // The search applies after a short debounce; wait for the list to show only matches.
    await expect
      .poll(async () => {
        const urls = await rows.locator('.url-text').allTextContents();
        return urls.length > 0 && urls.every((u) => u.includes(needle));
      })
      .toBe(true);
    await shot(page, 'url-log');
  });

  await test.step('the library lists the archive', async () => {
    await page.getByTestId('nav-library').click();
    const row = page.locator(`[data-testid="archive-row"][data-job-id="${jobId}"]`);
    await expect(row).toBeVisible();
    const archives = await api<ArchiveSummary[]>('archives.list');
    if (!archives.ok) throw new Error(archives.error.message);
    const archive = archives.value.find((a) => a.jobId === jobId)!;
    await expect(row.getByTestId('archive-pages')).toHaveText(archive.pages.toLocaleString('en-US'));
    await expect(row).toContainText(/finished/i);
    expect(archive.bytesOnDisk).toBeGreaterThan(0);
    await expect(row).toContainText(/\d[\d.,]* (KB|MB|GB)/);
    await expect(row).toContainText(site.origin);
    await shot(page, 'library');
  });

  await test.step('the viewer shows original URLs, follows links inside the page, goes back and forward', async () => {
    await page.locator(`[data-testid="archive-row"][data-job-id="${jobId}"]`).getByTestId('archive-open').click();
    const urlBar = page.getByTestId('viewer-url');
    const seed = `${site.origin}/`;
    await page.getByTestId('page-search').fill(seed);
    await page.locator(`[data-testid="page-item"][title="${seed}"]`).click();
    await expect(urlBar).toHaveValue(seed);
    const startValue = seed;

    const frame = page.frameLocator('[data-testid="viewer-frame"]');
    // A link to another page of the copy (the mirror rewrote it to a relative path).
    const link = frame.locator('a[href*="/"][href$=".html"]:not([href^="http"]):not([href^="/"])').first();

    await link.click();
    await expect(urlBar).not.toHaveValue(startValue);
    const followed = page.frames().find((f) => f !== page.mainFrame())!;
    // The frame is on the job's own origin: http://<job>.localhost:<port>/<token>/<localPath>.
    const localPath = decodeURIComponent(new URL(followed.url()).pathname.split('/').slice(2).join('/'));
    const row = await api<PageRow | null>('archives.lookup', { id: jobId, localPath });
    if (!row.ok || !row.value) throw new Error(`no page at ${localPath}`);
    await expect(urlBar).toHaveValue(row.value.url);
    await shot(page, 'viewer');

    await page.getByTestId('viewer-back').click();
    await expect(urlBar).toHaveValue(startValue);
    await page.getByTestId('viewer-forward').click();
    await expect(urlBar).toHaveValue(row.value.url);

    const target = `${site.origin}${site.manifest.pages[7]!.url}`;
    await page.getByTestId('page-search').fill(site.manifest.pages[7]!.url);
    await page.locator(`[data-testid="page-item"][title="${target}"]`).click();
    await expect(urlBar).toHaveValue(target);
  });

  await test.step('export a WACZ from the Export dialog', async () => {
    await page.getByTestId('nav-library').click();
    await page.locator(`[data-testid="archive-row"][data-job-id="${jobId}"]`).getByTestId('archive-export').click();
    await page.getByTestId('export-format-wacz').check();
    const out = path.join(harvest.dataDir, 'bench.wacz');
    await page.getByTestId('export-path').fill(out);
    await shot(page, 'export-dialog');
    await page.getByTestId('export-start').click();
    await expect(page.getByTestId('export-status')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    expect(existsSync(out) && statSync(out).size > 0).toBe(true);
    await shot(page, 'export-done');
    await page.getByTestId('export-close').click();
  });

  await test.step('help overlay', async () => {
    await page.getByTestId('nav-help').click();
    await expect(page.getByTestId('shortcuts-help')).toBeVisible();
    await shot(page, 'help');
    await page.keyboard.press('Escape');
    await page.getByTestId('nav-jobs').click();
    await shot(page, 'jobs-list');
  });

  expect(offsiteRequests).toEqual([]);
});
