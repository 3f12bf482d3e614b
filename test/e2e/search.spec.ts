import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Reply } from '../../shared/contract.js';
import type { JobSummary } from '../../shared/appViews.js';
import { expect, test } from './fixtures.js';

const SHOTS = path.join('test-results', 'screenshots');

const page = (title: string, body: string, links = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p>${links}</body></html>`;

/** Three pages; one word, "quillfeather", is on one of them only. */
const FILES: Record<string, string> = {
  '/': page('Reading room', 'Welcome to the reading room of the library.', '<a href="/hours.html">Hours</a> <a href="/manuscripts.html">Manuscripts</a>'),
  '/hours.html': page('Opening hours', 'The reading room opens at nine and closes at five.'),
  '/manuscripts.html': page('Manuscripts', 'Among the manuscripts is the Quillfeather ledger, a merchant’s account book of 1743.'),
};

test('an archivist searches the archived text, opens a hit and sees the word highlighted in the page', async ({ page: ui, harvest, api, offsiteRequests }) => {
  test.setTimeout(120_000);
  const site: Server = createServer((req, res) => {
    const body = FILES[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end('not here');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const must = <T>(r: Reply<T>): T => {
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  try {
    const job = must(await api<JobSummary>('jobs.create', { job: { name: 'Special collections', seeds: [`${origin}/`], politeness: { delayMs: 0 } } }));
    must(await api('jobs.start', { id: job.id }));
    await expect
      .poll(async () => must(await api<JobSummary[]>('jobs.list')).find((j) => j.id === job.id)?.status, { timeout: 60_000 })
      .toBe('finished');

    await ui.goto(harvest.url);
    await ui.getByTestId('nav-search').click();
    await ui.getByTestId('search-scope').selectOption(job.id);
    await ui.getByTestId('search-input').fill('quillfeather');
    await ui.getByTestId('search-input').press('Enter');

    const hit = ui.getByTestId('search-hit');
    await test.step('the one page with the word is the hit, its snippet marking the word', async () => {
      await expect(hit).toHaveCount(1);
      await expect(ui.getByTestId('search-total')).toContainText('1 match for quillfeather');
      await expect(hit.getByTestId('hit-open')).toHaveText('Manuscripts');
      await expect(hit.getByTestId('hit-url')).toHaveText(`${origin}/manuscripts.html`);
      await expect(hit.getByTestId('hit-snippet')).toContainText('Quillfeather ledger, a merchant’s account book');
      await expect(hit.getByTestId('hit-snippet').locator('mark')).toHaveText(['Quillfeather']);
      await ui.screenshot({ path: path.join(SHOTS, 'search-hits.png') });
    });

    await test.step('opening it shows that page in the viewer with the word highlighted', async () => {
      await hit.getByTestId('hit-open').click();
      await expect(ui.getByTestId('viewer-url')).toHaveValue(`${origin}/manuscripts.html`);
      await expect(ui.getByTestId('viewer-highlight')).toContainText('quillfeather');
      const marks = ui.frameLocator('[data-testid="viewer-frame"]').locator('mark[data-harvest-mark]');
      await expect(marks).toHaveText(['Quillfeather']);
      await ui.screenshot({ path: path.join(SHOTS, 'search-hit-in-viewer.png') });
    });
  } finally {
    await new Promise((resolve) => site.close(resolve));
  }
  expect(offsiteRequests).toEqual([]);
});
