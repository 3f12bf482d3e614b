import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { CaptureSummary } from '../../shared/captures.js';
import type { JobSummary } from '../../shared/appViews.js';
import { startBenchSite } from '../helpers/benchSite.js';
import { expect, test } from './fixtures.js';
import { shots } from './screenshots.js';

/**
 * The screens an archivist meets beyond the happy path, each saved at 1400×900 in the light and
 * the dark theme under test-results/screenshots/: a host that refuses connections, the URL detail
 * panel, cancel confirmation, the not-in-archive page and Back, the export download link, a
 * schedule, a site edited between two captures (Run again now) and the change report.
 */

const VIEWPORT = { width: 1400, height: 900 };

/** A port on 127.0.0.1 where a connection is refused: a listener that is opened and closed again. */
async function refusingPort(): Promise<number> {
  const srv: Server = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

async function createJob(page: Page, name: string, seed: string, fields: Record<string, string> = {}): Promise<string> {
  await page.getByTestId('nav-jobs').click();
  await page.getByTestId('job-new').click();
  await page.getByTestId('job-field-name').fill(name);
  await page.getByTestId('job-field-seeds').fill(seed);
  for (const [field, value] of Object.entries(fields)) await page.getByTestId(`job-field-${field}`).fill(value);
  await page.getByTestId('job-form-save').click();
  await expect(page.getByTestId('job-form')).toBeHidden();
  const row = page.locator('[data-testid="job-row"]', { hasText: name }).first();
  const id = (await row.getAttribute('data-job-id'))!;
  await row.click();
  return id;
}

async function waitForStatus(page: Page, status: RegExp, timeout = 90_000): Promise<void> {
  await expect(page.getByTestId('job-detail-status')).toHaveText(status, { timeout });
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(VIEWPORT);
});

test('the address without the token says to use the printed URL', async ({ page, harvest }) => {
  const res = await page.goto(new URL('/', harvest.url).href);
  expect(res!.status()).toBe(404);
  await expect(page.locator('h1')).toContainText('Harvest is running here');
  await expect(page.locator('body')).toContainText('harvest serve');
  expect(await page.content()).not.toContain(new URL(harvest.url).pathname);
  await shots(page, 'tokenless-address');
});

test('a host that refuses connections: the job says why', async ({ page, harvest, offsiteRequests }) => {
  test.setTimeout(120_000);
  await page.goto(harvest.url);
  const port = await refusingPort();
  await createJob(page, 'Refusing host', `http://127.0.0.1:${port}/`);
  await page.getByTestId('job-start').click();
  await waitForStatus(page, /finished|failed/);
  // Whatever the engine reports: the job's failure message, the seed's error, or (robots.txt being
  // unreachable keeps a crawler out, RFC 9309) the robots.txt fetch's error.
  const reason = /refused|ECONNREFUSED|unreachable|nothing answered/i;
  await expect(page.locator('[data-testid="job-error"], [data-testid="job-summary"]').first()).toContainText(reason);
  await expect(page.getByTestId('job-error')).toContainText(/nothing answered at 127\.0\.0\.1 on port \d+: check the port number/);
  await expect(page.getByTestId('job-resume')).toBeVisible();
  await shots(page, 'refused-connection');
  await page.getByTestId('url-row').first().click();
  await expect(page.getByTestId('url-detail')).toContainText(reason);
  await expect(page.getByTestId('url-detail-warc')).toContainText(/nothing is recorded|no answer was received/);
  await shots(page, 'refused-connection-detail');
  expect(offsiteRequests).toEqual([]);
});

test('cancel asks first, sits apart from Pause, and stops the job for good', async ({ page, harvest, site }) => {
  test.setTimeout(120_000);
  await page.goto(harvest.url);
  await createJob(page, 'Slow crawl to cancel', `${site.origin}/`, { 'politeness.perHostConnections': '1', 'politeness.delayMs': '300' });
  await page.getByTestId('job-start').click();
  await waitForStatus(page, /running/, 30_000);
  await expect(page.getByTestId('progress-percent')).toContainText(/% of the [\d,]+ URLs? found so far/, { timeout: 20_000 });
  // Politeness changed without pausing: the crawl takes it and the job shows what is in force.
  await expect(page.getByTestId('live-control')).toContainText('Now: 1 connection per host, 300 ms between requests');
  await page.getByTestId('live-delay').fill('200');
  await page.getByTestId('live-apply').click();
  await expect(page.getByTestId('live-control')).toContainText('Now: 1 connection per host, 200 ms between requests', { timeout: 10_000 });
  await expect(page.getByTestId('live-applied')).toBeVisible();
  await page.getByTestId('job-cancel').click();
  await expect(page.getByTestId('job-cancel-confirm')).toBeVisible();
  await shots(page, 'cancel-confirm');
  await page.getByTestId('job-cancel-confirm-cancel').click();
  await expect(page.getByTestId('job-cancel-confirm')).toBeHidden();
  await expect(page.getByTestId('job-detail-status')).toHaveText(/running/);
  await expect(page.getByTestId('progress-eta')).toContainText(/left/, { timeout: 20_000 });
  await shots(page, 'progress-eta');

  await test.step('rates survive a reload', async () => {
    await expect.poll(async () => (await page.getByTestId('sparkline-urls').locator('polyline').getAttribute('points'))?.split(' ').length ?? 0).toBeGreaterThan(3);
    await page.reload();
    await page.locator('[data-testid="job-row"]', { hasText: 'Slow crawl to cancel' }).click();
    // Straight after the reload, before many new events: the host's history draws the graph.
    const points = (await page.getByTestId('sparkline-urls').locator('polyline').getAttribute('points'))?.split(' ').length ?? 0;
    expect(points).toBeGreaterThan(3);
  });

  await page.getByTestId('job-cancel').click();
  await page.getByTestId('job-cancel-confirm-ok').click();
  await waitForStatus(page, /cancelled/, 60_000);
  await expect(page.getByTestId('job-summary')).toBeVisible();
  await expect(page.getByTestId('job-resume')).toHaveCount(0);
  await expect(page.getByTestId('job-edit')).toHaveText(/New capture/);
  await shots(page, 'cancelled-summary');
});

test('URL detail, the not-in-archive page and Back, and the export download link', async ({ page, harvest, site, api, offsiteRequests }) => {
  test.setTimeout(150_000);
  await page.goto(harvest.url);
  const jobId = await createJob(page, 'Bench site, 20 pages', `${site.origin}/`, { 'limits.maxPages': '20', 'politeness.delayMs': '0' });
  await page.getByTestId('job-start').click();
  await waitForStatus(page, /finished/);
  await expect(page.getByTestId('job-summary')).toBeVisible();
  // The page limit lets requisites and the odd page already in flight through, so "about 20".
  await expect(page.getByTestId('summary-pages')).toHaveText(/^\d+ pages$/);
  await shots(page, 'finished-summary');

  await test.step('the URL log has headers and fills the pane; a row opens its detail', async () => {
    await expect(page.getByTestId('url-log-head')).toContainText('URL');
    const log = await page.getByTestId('url-log').boundingBox();
    const pane = await page.locator('.detail-pane').boundingBox();
    expect(log!.y + log!.height).toBeGreaterThan(pane!.y + pane!.height - 40);
    await page.getByTestId('url-log-state').selectOption('archived');
    await page.getByTestId('url-log-search').fill(`${site.origin}/`);
    const seedRow = page.locator('[data-testid="url-row"]').filter({ has: page.locator('.url-text', { hasText: new RegExp(`^${site.origin}/$`) }) });
    await seedRow.click();
    const panel = page.getByTestId('url-detail');
    await expect(panel).toBeVisible();
    await expect(page.getByTestId('url-detail-state')).toHaveText('archived');
    await expect(page.getByTestId('url-detail-status')).toContainText('200');
    await expect(page.getByTestId('url-detail-local')).toContainText('mirror/');
    await expect(page.getByTestId('url-detail-warc')).toContainText(/warc\/harvest-.*\.warc\.gz @ [\d,]+/);
    await expect(page.getByTestId('url-detail-headers')).toContainText(/content-type/i);
    await expect(page.getByTestId('url-detail-timing')).toHaveText(/^headers after [\d,]+ ms, complete after [\d,.]+ m?s$/);
    await shots(page, 'url-detail');
    await page.getByTestId('url-detail-close').click();
    await expect(panel).toBeHidden();
  });

  await test.step('a link to a page beyond the limit opens "not in this archive"; Back returns', async () => {
    await page.getByTestId('job-browse').click();
    const urlBar = page.getByTestId('viewer-url');
    // The URL bar takes an original URL.
    await urlBar.fill(`${site.origin}/`);
    await urlBar.press('Enter');
    await expect(urlBar).toHaveValue(`${site.origin}/`);
    await expect(page.getByTestId('viewer-banner')).toContainText(/captured/);
    const frame = page.frameLocator('[data-testid="viewer-frame"]');
    // Links to what was not archived stay absolute (to the live site).
    const live = frame.locator(`a[href^="${site.origin}/"]`).first();
    await expect(live).toBeAttached();
    await live.click();
    const missing = page.getByTestId('not-in-archive');
    await expect(missing).toBeVisible();
    await expect(page.getByTestId('not-in-archive-why')).toContainText(/Limit: pages|never met|Skipped/);
    await expect(page.getByTestId('not-in-archive-add')).toHaveText(/new capture/i);
    await shots(page, 'not-in-archive');
    await page.getByTestId('viewer-back').click();
    await expect(missing).toBeHidden();
    await expect(urlBar).toHaveValue(`${site.origin}/`);
    await page.getByTestId('viewer-forward').click();
    await expect(missing).toBeVisible();
    await page.getByTestId('viewer-back').click();
    await shots(page, 'viewer');
  });

  await test.step("submitting an archived page's form says that forms don't submit in an archived copy", async () => {
    const frame = page.frameLocator('[data-testid="viewer-frame"]');
    await frame.locator('form[role="search"] input[name="q"]').fill('library');
    await frame.locator('form[role="search"] button').click();
    await expect(page.getByTestId('viewer-form-notice')).toContainText("Forms don't submit in an archived copy");
    await expect(page.getByTestId('viewer-url')).toHaveValue(`${site.origin}/`);
    await shots(page, 'viewer-form-notice');
  });

  await test.step('a finished export has a download link, is listed, and verifies', async () => {
    await page.getByTestId('nav-library').click();
    const row = page.locator(`[data-testid="archive-row"][data-job-id="${jobId}"]`);
    const jobs = await api<JobSummary[]>('jobs.list');
    if (!jobs.ok) throw new Error(jobs.error.message);
    const job = jobs.value.find((j) => j.id === jobId)!;
    // The library and the jobs screen give the same numbers.
    await expect(row.getByTestId('archive-archived')).toHaveText(job.counts!.archived.toLocaleString('en-US'));
    await expect(row.getByTestId('archive-pages')).toHaveText(String(job.pages));
    await shots(page, 'library');
    await row.getByTestId('archive-export').click();
    await page.getByTestId('export-format-wacz').check();
    await page.getByTestId('export-start').click();
    await expect(page.getByTestId('export-status')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    const link = page.getByTestId('export-download');
    await expect(link).toBeVisible();
    const res = await page.request.get(new URL((await link.getAttribute('href'))!, harvest.url).href);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-disposition']).toMatch(/attachment; filename=".*\.wacz"/);
    expect((await res.body()).subarray(0, 2).toString('latin1')).toBe('PK');
    await expect(page.getByTestId('export-record')).toHaveCount(1);
    await page.getByTestId('export-verify').click();
    await expect(page.getByTestId('export-verified')).toContainText('valid');
    await shots(page, 'export-download');
    await page.getByTestId('export-again').click();
    await expect(page.getByTestId('export-start')).toBeVisible();
    await page.getByTestId('export-close').click();
  });

  await test.step('a new capture of the finished job warns that name and seeds repeat', async () => {
    await page.getByTestId('nav-jobs').click();
    await page.locator(`[data-testid="job-row"][data-job-id="${jobId}"]`).click();
    await page.getByTestId('job-edit').click();
    await expect(page.getByTestId('job-form-capture-note')).toBeVisible();
    await expect(page.getByTestId('job-form-twin')).toBeVisible();
    await page.getByTestId('job-field-limits.maxPages').fill('25');
    await page.getByTestId('nav-library').click();
    await expect(page.getByTestId('leave-confirm')).toBeVisible();
    await shots(page, 'unsaved-edits');
    await page.getByTestId('leave-confirm-cancel').click();
    await expect(page.getByTestId('job-form')).toBeVisible();
    await page.getByTestId('job-form-cancel').click();
    await page.getByTestId('leave-confirm-ok').click();
    await expect(page.getByTestId('job-form')).toBeHidden();
  });
  expect(offsiteRequests).toEqual([]);
});

test('a schedule, Run again now after the site changed, and the change report', async ({ page, harvest, api, offsiteRequests }) => {
  test.setTimeout(240_000);
  // Its own site, with validators and read afresh on every request, so it can be edited between captures.
  const work = mkdtempSync(path.join(tmpdir(), 'harvest-e2e-recrawl-'));
  const site = await startBenchSite({ pages: 150, workDir: work, validators: true, live: true });
  try {
    await page.goto(harvest.url);
    const jobId = await createJob(page, 'Changing site', `${site.origin}/`, { 'limits.maxDepth': '1', 'politeness.delayMs': '0' });
    await page.getByTestId('job-start').click();
    await waitForStatus(page, /finished/);

    await test.step('a weekly schedule shows its next run', async () => {
      await page.getByTestId('schedule-edit').click();
      await page.getByTestId('schedule-every').fill('1');
      await page.getByTestId('schedule-unit').selectOption('weeks');
      await page.getByTestId('schedule-at').fill('03:00');
      await page.getByTestId('schedule-from').fill('2030-01-07');
      await shots(page, 'schedule-form');
      await page.getByTestId('schedule-save').click();
      await expect(page.getByTestId('schedule-summary')).toHaveText('Every week on Monday at 03:00');
      await expect(page.getByTestId('schedule-next')).toContainText(/Next run .*2030/);
      await shots(page, 'schedule');
    });

    // Two pages' text edited, one page's markup only, one page deleted, one new page linked from the home page.
    const pages = site.manifest.pages.filter((p) => p.depth === 1 && p.file.endsWith('.html') && (p.charset ?? 'utf-8') === 'utf-8' && !p.url.includes('?'));
    const [edited1, edited2, markup, gone] = pages as [(typeof pages)[number], (typeof pages)[number], (typeof pages)[number], (typeof pages)[number]];
    const file = (p: { file: string }) => path.join(site.dir, p.file);
    for (const p of [edited1, edited2]) writeFileSync(file(p), readFileSync(file(p), 'utf8').replace('</body>', '<p>Revised for the second capture.</p></body>'));
    writeFileSync(file(markup), readFileSync(file(markup), 'utf8').replace('<body', '<body data-revised="markup"'));
    unlinkSync(file(gone));
    const home = site.manifest.pages.find((p) => p.depth === 0)!;
    writeFileSync(path.join(path.dirname(file(home)), 'new-notice.html'), '<html><head><title>New notice</title></head><body><p>A notice added after the first capture.</p></body></html>');
    writeFileSync(file(home), readFileSync(file(home), 'utf8').replace('</body>', '<a href="/new-notice.html">New notice</a></body>'));

    await page.getByTestId('job-run-again').click();
    await expect
      .poll(async () => {
        const r = await api<CaptureSummary[]>('archives.captures', { id: jobId });
        return r.ok ? r.value.map((c) => `${c.id} ${c.state}`).join(', ') : r.error.message;
      }, { timeout: 120_000 })
      .toBe('1 finished, 2 finished');
    await waitForStatus(page, /finished/);

    await page.getByTestId('nav-library').click();
    const row = page.locator(`[data-testid="archive-row"][data-job-id="${jobId}"]`);
    await row.getByTestId('archive-captures').click();
    const rows = page.getByTestId('capture-row');
    await expect(rows).toHaveCount(2);
    const latest = rows.first();
    await expect(latest).toHaveAttribute('data-capture', '2');
    expect(Number((await latest.getByTestId('capture-changed').textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(2);
    await expect(latest.getByTestId('capture-new')).not.toHaveText('0');
    await expect(latest.getByTestId('capture-removed')).not.toHaveText('0');
    await shots(page, 'captures');

    await latest.getByTestId('capture-changes').click();
    const report = page.getByTestId('change-report');
    await expect(report).toContainText('what changed since #1');
    const listed = async (tab: string): Promise<string[]> => {
      await page.getByTestId(`change-tab-${tab}`).click();
      return page.getByTestId('change-url').allTextContents();
    };
    const changed = await listed('changed');
    for (const p of [edited1, edited2]) expect(changed).toContain(site.origin + p.url);
    expect(changed).not.toContain(site.origin + markup.url);
    await page.getByTestId('change-tab-changed').click();
    await shots(page, 'change-report');
    expect(await listed('markup-only')).toContain(site.origin + markup.url);
    expect(await listed('removed')).toContain(site.origin + gone.url);
    expect(await listed('new')).toContain(`${site.origin}/new-notice.html`);
    await page.getByTestId('change-report-close').click();
    await expect(report).toBeHidden();
  } finally {
    await site.stop();
    rmSync(work, { recursive: true, force: true });
  }
  expect(offsiteRequests).toEqual([]);
});
