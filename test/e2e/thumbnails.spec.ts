import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PageRow } from '../../shared/appViews.js';
import { expect, harvestJob, test } from './fixtures.js';

/** A whole 1×1 PNG: what the test puts where `harvest thumbnails` would write its pictures. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test("the library's page grid shows the thumbnails the archive serves, not 'No thumbnail'", async ({ page, harvest, site, api, offsiteRequests }) => {
  test.setTimeout(120_000);
  const { id, archiveDir } = await harvestJob(api, { name: 'Thumbnails', seeds: [`${site.origin}/`], limits: { maxPages: 3 } });
  const pages = await api<{ rows: PageRow[] }>('archives.pages', { id });
  if (!pages.ok) throw new Error(pages.error.message);
  for (const p of pages.value.rows) {
    const file = path.join(archiveDir, 'thumbnails', `${p.localPath}.png`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, PIXEL);
  }

  await page.goto(harvest.url);
  await page.getByTestId('nav-library').click();
  await page.locator(`[data-testid="archive-row"][data-job-id="${id}"]`).getByTestId('archive-grid').click();
  const thumbs = page.getByTestId('page-grid').getByTestId('thumb');
  await expect(thumbs).toHaveCount(pages.value.rows.length);
  // Loaded, not just asked for: the page's own CSP must let the archive's origin serve pictures.
  await expect.poll(() => thumbs.evaluateAll((imgs) => imgs.length > 0 && imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
  await expect(page.getByTestId('page-grid').getByTestId('thumb-placeholder')).toHaveCount(0);
  await page.screenshot({ path: path.join('test-results', 'screenshots', 'library-thumbnails.png'), fullPage: true });
  expect(offsiteRequests).toEqual([]);
});
