import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { PNG } from 'pngjs';
import type { Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
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
      await expect(page.getByTestId('diff-summary')).toHaveText('1 word removed, 1 word added.', { timeout: 30_000 });
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

/** A solid w×h PNG: each capture of the changing picture has its own size, so a wrong one is seen. */
function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(0x80);
  return PNG.sync.write(image);
}

test('the capture picker shows each capture of a page, its images and a page removed since', async ({ page, harvest, api, offsiteRequests }) => {
  test.setTimeout(180_000);
  let capture = 1;
  const sizes: Record<number, [number, number]> = { 1: [7, 5], 2: [11, 3], 3: [13, 2] };
  // `/` and its picture change every capture; `/logo.png` and `/same.html` answer 304 to their
  // validators; `/gone.html` is removed in capture 3.
  const files = (): Record<string, { type: string; body: string | Buffer; etag?: string }> => ({
    '/': {
      type: 'text/html',
      body: `<!doctype html><title>Front</title><p id="words">Words of capture ${capture}.</p><img id="pic" src="/pic.png"><img id="logo" src="/logo.png">
        <a href="/same.html">Same</a> ${capture < 3 ? '<a href="/gone.html">Gone</a>' : ''}`,
    },
    '/pic.png': { type: 'image/png', body: png(...sizes[capture]!) },
    '/logo.png': { type: 'image/png', body: png(5, 5), etag: '"logo"' },
    '/same.html': { type: 'text/html', body: '<!doctype html><title>Same</title><p id="words">Same words.</p><img id="logo" src="/logo.png">', etag: '"same"' },
    ...(capture < 3 && { '/gone.html': { type: 'text/html', body: '<!doctype html><title>Gone</title><p id="words">Gone soon.</p><img id="pic" src="/pic.png">' } }),
  });
  const site: Server = createServer((req, res) => {
    const f = files()[req.url ?? ''];
    if (!f) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
    if (f.etag && req.headers['if-none-match'] === f.etag) return void res.writeHead(304, { etag: f.etag }).end();
    res.writeHead(200, { 'content-type': f.type, ...(f.etag && { etag: f.etag }) }).end(f.body);
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
    const job = must(await api<JobSummary>('jobs.create', { job: { name: 'Picker', seeds: [`${origin}/`], politeness: { delayMs: 0 } } }));
    must(await api('jobs.start', { id: job.id }));
    await finished(job.id);
    for (capture = 2; capture <= 3; capture++) {
      must(await api('jobs.recrawl', { id: job.id }));
      await finished(job.id);
    }
    capture = 3;

    await page.goto(harvest.url);
    await page.getByTestId('nav-library').click();
    await page.locator(`[data-testid="archive-row"][data-job-id="${job.id}"]`).getByTestId('archive-open').click();
    const frame = page.frameLocator('[data-testid="viewer-frame"]');
    const width = (id: string) => frame.locator(id).evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : -1));
    const pick = (n: number) => page.locator(`[data-testid="timeline-capture"][data-capture="${n}"]`);

    await test.step('each capture of a changed page shows its own words and its own picture', async () => {
      await page.getByTestId('page-item').filter({ hasText: 'Front' }).click();
      await expect(frame.locator('#words')).toHaveText('Words of capture 3.');
      for (const n of [2, 1, 3]) {
        await pick(n).click();
        await expect(frame.locator('#words')).toHaveText(`Words of capture ${n}.`);
        await expect(page.getByTestId('viewer-banner')).toContainText(`as capture ${n} had it`);
        await expect.poll(() => width('#pic'), { message: `capture ${n}'s picture` }).toBe(sizes[n]![0]);
        // The logo answered 304 in captures 2 and 3: its payload comes from capture 1's record.
        await expect.poll(() => width('#logo'), { message: `capture ${n}'s logo` }).toBe(5);
      }
    });

    await test.step('a not-modified capture shows the page its original holds', async () => {
      await page.getByTestId('timeline-latest').click();
      await page.getByTestId('page-item').filter({ hasText: 'Same' }).click();
      await expect(pick(2)).toContainText('unchanged (304)');
      await pick(2).click();
      await expect(frame.locator('#words')).toHaveText('Same words.');
      await expect.poll(() => width('#logo')).toBe(5);
    });

    await test.step('a page removed in capture 3 can be picked in the captures that had it, not in 3', async () => {
      await page.getByTestId('timeline-latest').click();
      const gone = page.getByTestId('page-item').filter({ hasText: 'Gone' });
      await expect(gone.getByTestId('page-removed')).toHaveText('removed');
      await gone.click();
      await expect(pick(3)).toContainText('removed');
      await expect(pick(3)).toBeDisabled();
      for (const n of [1, 2]) {
        await pick(n).click();
        await expect(frame.locator('#words')).toHaveText('Gone soon.');
        // Its picture as that capture had it, not the latest one's.
        await expect.poll(() => width('#pic'), { message: `capture ${n}'s picture on the removed page` }).toBe(sizes[n]![0]);
      }
    });
  } finally {
    site.close();
  }
  expect(offsiteRequests).toEqual([]);
});
