import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { JobSummary, Reply } from '../../shared/contract.js';
import { expectAccessible } from './axe.js';
import { expect, test } from './fixtures.js';

const SHOTS = path.join('test-results', 'screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

const home = (words: string, color: string) =>
  `<!doctype html><html><head><title>Opening hours</title><link rel="stylesheet" href="/s.css"><style>p{color:${color}}</style></head>` +
  `<body><h1>Opening hours</h1><p id="words">${words}</p><a href="/other.html">Other</a></body></html>`;

test('an archivist browses an earlier capture of a changed page and compares its text with the latest', async ({ page, harvest, api, offsiteRequests }) => {
  test.setTimeout(150_000);
  const files: Record<string, [string, string]> = {
    '/': ['text/html', home('Monday to Friday, nine to five.', 'rgb(10, 20, 30)')],
    '/other.html': ['text/html', '<!doctype html><title>Other</title><p>Another page.</p>'],
    '/s.css': ['text/css', 'h1 { color: rgb(1, 2, 3) }'],
  };
  const site: Server = createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) return void res.writeHead(404).end('gone');
    res.writeHead(200, { 'content-type': f[0] }).end(f[1]);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const must = <T>(r: Reply<T>): T => {
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  const finished = (id: string) =>
    expect
      .poll(async () => must(await api<JobSummary[]>('jobs.list')).find((j) => j.id === id)?.status, { timeout: 60_000 })
      .toBe('finished');

  try {
    const job = must(await api<JobSummary>('jobs.create', { job: { name: 'Hours', seeds: [`${origin}/`], politeness: { delayMs: 0 } } }));
    must(await api('jobs.start', { id: job.id }));
    await finished(job.id);
    files['/'] = ['text/html', home('Monday to Saturday, nine to five.', 'rgb(40, 50, 60)')];
    delete files['/other.html'];
    must(await api('jobs.recrawl', { id: job.id }));
    await finished(job.id);

    await page.goto(harvest.url);
    await page.getByTestId('nav-library').click();
    await page.locator(`[data-testid="archive-row"][data-job-id="${job.id}"]`).getByTestId('archive-open').click();
    const frame = page.frameLocator('[data-testid="viewer-frame"]');

    await test.step('the page list marks the page gone from the site', async () => {
      const other = page.getByTestId('page-item').filter({ hasText: 'Other' });
      await expect(other.getByTestId('page-removed')).toHaveText('removed');
    });

    await test.step('the timeline shows the page as the first capture had it', async () => {
      await page.getByTestId('page-item').filter({ hasText: 'Opening hours' }).click();
      await expect(frame.locator('#words')).toHaveText('Monday to Saturday, nine to five.');
      const first = page.locator('[data-testid="timeline-capture"][data-capture="1"]');
      await expect(first).toContainText('new');
      await expect(page.locator('[data-testid="timeline-capture"][data-capture="2"]')).toContainText('changed');
      await first.click();
      await expect(frame.locator('#words')).toHaveText('Monday to Friday, nine to five.');
      await expect(frame.locator('#words')).toHaveCSS('color', 'rgb(10, 20, 30)');
      // Its stylesheet came from the archive too, served under the same origin and policy.
      await expect(frame.locator('h1')).toHaveCSS('color', 'rgb(1, 2, 3)');
      await expect(page.getByTestId('viewer-banner')).toContainText('as capture 1 had it');
      await expect(page.getByTestId('viewer-url')).toHaveValue(`${origin}/`);
      await shot(page, 'viewer-earlier-capture');
      await expectAccessible(page, 'viewer-earlier-capture');
    });

    await test.step('following a link inside the earlier capture stays in it', async () => {
      await frame.getByRole('link', { name: 'Other' }).click();
      await expect(frame.locator('p')).toHaveText('Another page.');
      await expect(page.getByTestId('viewer-url')).toHaveValue(`${origin}/other.html`);
      await expect(page.getByTestId('viewer-banner')).toContainText('as capture 1 had it');
      await page.getByTestId('viewer-back').click();
      await expect(frame.locator('#words')).toHaveText('Monday to Friday, nine to five.');
    });

    await test.step('compare text shows the change side by side', async () => {
      await page.getByTestId('compare-text').click();
      await expect(page.getByTestId('diff-summary')).toHaveText('1 word removed, 1 word added.');
      await expect(page.getByTestId('diff-before').locator('del')).toHaveText('Friday');
      await expect(page.getByTestId('diff-after').locator('ins')).toHaveText('Saturday');
      await shot(page, 'viewer-text-diff');
      await expectAccessible(page, 'viewer-text-diff');
      await page.getByTestId('diff-close').click();
      await page.getByTestId('timeline-latest').click();
      await expect(frame.locator('#words')).toHaveText('Monday to Saturday, nine to five.');
    });
  } finally {
    site.close();
  }
  expect(offsiteRequests).toEqual([]);
});
