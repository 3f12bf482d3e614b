import { renameSync } from 'node:fs';
import path from 'node:path';
import type { QaRunStatus } from '../../shared/qa.js';
import { expect, harvestJob, test } from './fixtures.js';
import { shots } from './screenshots.js';

/**
 * The page analysis in the app: a small crawl of the bench site whose offline copy has lost its
 * stylesheet, analysed from the Report screen; the results and one page's detail saved at
 * 1400×900, light and dark (and checked with axe by shots()).
 */
test('Analyse on the Report screen: progress, then the pages worst first and one page side by side', async ({ page, harvest, site, api, offsiteRequests }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  const { id, archiveDir } = await harvestJob(api, { name: 'Analysed', seeds: [`${site.origin}/`], limits: { maxPages: 4 } });
  // The copy loses its stylesheet: every page looks different and names it as missing.
  const css = path.join(archiveDir, 'mirror', new URL(site.origin).host.replace(':', '_'), 'assets', 'css', 'main.css');
  renameSync(css, `${css}.gone`);

  await page.goto(harvest.url);
  await page.getByTestId('nav-report').click();
  await page.getByTestId('report-archive').selectOption(id);
  await page.getByTestId('qa-start').click();
  await expect(page.getByTestId('qa-pause')).toBeVisible();
  await expect
    .poll(async () => {
      const r = await api<QaRunStatus | null>('qa.status', { id });
      return r.ok ? r.value?.state : null;
    }, { timeout: 180_000 })
    .toBe('done');
  await expect(page.getByTestId('qa-run-state')).toHaveAttribute('data-state', 'done');
  const rows = page.getByTestId('qa-row');
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBeGreaterThanOrEqual(3);
  const histogramTotal = await page.getByTestId('qa-bin').evaluateAll((bins) => bins.reduce((n, b) => n + Number((b as HTMLElement).dataset.count), 0));
  expect(histogramTotal).toBe(count);

  // Keyboard: the worst page's URL button opens its detail.
  await rows.first().getByTestId('qa-row-open').focus();
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('qa-detail');
  await expect(detail.getByTestId('qa-missing-row').filter({ hasText: '/assets/css/main.css' })).toHaveCount(1);
  await expect.poll(() => detail.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth === 320))).toBe(true);
  await detail.getByTestId('qa-slider').fill('35');
  // The list, the histogram and the top of the detail; then the rest of the detail.
  await page.locator('.report-screen').evaluate((el) => el.scrollTo(0, 0));
  await shots(page, 'page-analysis');
  await detail.getByTestId('qa-missing').scrollIntoViewIfNeeded();
  await shots(page, 'page-analysis-detail');
  expect(offsiteRequests).toEqual([]);
});
