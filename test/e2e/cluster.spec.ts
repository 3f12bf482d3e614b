import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/benchSite.js';
import { startWorker, type Worker } from '../helpers/clusterWorker.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { startMultiSite, type MultiSite } from '../helpers/multiSite.js';
import { startPostgres, type ThrowawayPostgres } from '../helpers/throwawayPostgres.js';
import { expect, test } from './fixtures.js';
import { shots } from './screenshots.js';

/**
 * `harvest serve` attached to a cluster harvest: two workers on a throwaway PostgreSQL harvest two
 * slow loopback sites while the app shows their table, pauses them and lets them go on. Screens
 * saved at 1400×900, light and dark: the attach refusal and the paused harvest.
 */

const PASSWORD = 'e2e-Secret';
const ADDRESSES = ['127.0.0.91', '127.0.0.92'];

let postgres: ThrowawayPostgres;
let site: MultiSite;
let work: string;

test.beforeAll(async () => {
  postgres = await startPostgres();
  site = await startMultiSite({ sites: 2, pages: 60, latencyMs: 50, firstAddress: 95 });
  // Slow answers and one connection per site, so the harvest is still running when paused.
  for (const a of ADDRESSES) site.slowFor.set(a, 350);
  work = mkdtempSync(path.join(tmpdir(), 'harvest-e2e-cluster-'));
});

test.afterAll(async () => {
  await site?.stop();
  await postgres?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('attach to a cluster harvest: its workers, pause, resume, to the end', async ({ page, harvest, offsiteRequests }) => {
  test.setTimeout(240_000);
  const init = await runHarvest(['cluster', 'init', '--db', postgres.url, '--name', 'two-sites', '--delay-ms', '0', '--connections', '1', '--lease-timeout', '2', ...site.origins.map((o) => `${o}/`)]);
  expect(init.status, init.stderr).toBe(0);
  await page.goto(harvest.url);

  // Nothing listening: the form says so, with the URL shown without its password.
  const closed = await freePort();
  await page.getByTestId('cluster-attach-open').click();
  await page.getByTestId('cluster-attach-url').fill(`postgres://postgres:${PASSWORD}@127.0.0.1:${closed}/harvest`);
  await expect(page.getByTestId('cluster-attach-preview')).toHaveText(`postgres://postgres@127.0.0.1:${closed}/harvest`);
  await page.getByTestId('cluster-attach-submit').click();
  await expect(page.getByTestId('cluster-attach-error')).toContainText('ECONNREFUSED');
  await shots(page, 'cluster-attach-refused');

  const workers: Worker[] = ['e1', 'e2'].map((id, i) => startWorker(postgres.url, path.join(work, 'store'), id, ADDRESSES[i]!, ['--lease-seconds', '1']));
  try {
    await page.getByTestId('cluster-attach-url').fill(postgres.url.replace('postgres@', `postgres:${PASSWORD}@`));
    await page.getByTestId('cluster-attach-submit').click();
    await expect(page.getByTestId('cluster-detail')).toBeVisible();
    await expect(page.getByTestId('cluster-name')).toHaveText('two-sites');
    await expect(page.getByTestId('cluster-db')).toHaveText(postgres.url);

    // Both workers in the table, alive and fetching.
    const rows = page.getByTestId('cluster-worker');
    await expect(rows).toHaveCount(2, { timeout: 30_000 });
    await expect(page.getByTestId('cluster-worker-state')).toHaveText(['alive', 'alive']);
    await expect(page.getByTestId('cluster-fetched')).not.toHaveText('0', { timeout: 30_000 });

    await page.getByTestId('cluster-pause').click();
    // Paused once the batches in flight have committed; then nothing more is fetched.
    await expect(page.getByTestId('cluster-phase')).toHaveText('paused', { timeout: 60_000 });
    await expect(page.getByTestId('cluster-leased')).toHaveText('0');
    const queued = await page.getByTestId('cluster-queued').textContent();
    expect(Number(queued?.replace(/,/g, ''))).toBeGreaterThan(0);
    const served = site.served.length;
    await page.waitForTimeout(3_000);
    expect(site.served.length, 'requests while paused').toBe(served);
    await expect(page.getByTestId('cluster-queued')).toHaveText(queued!);
    await shots(page, 'cluster-paused');

    await page.getByTestId('cluster-resume').click();
    await expect(page.getByTestId('cluster-phase')).toHaveText(/running|finished/);
    for (const w of workers) expect(await w.exit, w.log()).toBe(0);
    await expect(page.getByTestId('cluster-phase')).toHaveText('finished', { timeout: 30_000 });
    await expect(page.getByTestId('cluster-worker-state')).toHaveText([/^stopped/, /^stopped/]);
    await expect(page.getByTestId('cluster-row')).toHaveCount(1);
    expect(await page.locator('body').textContent()).not.toContain(PASSWORD);
  } finally {
    site.slowFor.clear();
    for (const w of workers) w.child.kill();
  }
  expect(offsiteRequests).toEqual([]);
});
