import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WARCRecord, WARCSerializer } from 'warcio';
import { expect, ownHarvest, test as shared, type WorkerFixtures } from './fixtures.js';
import { shots } from './screenshots.js';

/** A host of its own (see ownHarvest): the imported archive stays out of the other files' searches. */
const test = shared.extend<{}, WorkerFixtures>({ harvest: ownHarvest() });

/** Enough pages that the import is still running when the progress is photographed. */
const PAGES = 6000;

async function warcOfPages(file: string, pages: number): Promise<void> {
  const parts: Buffer[] = [];
  for (let i = 0; i < pages; i++) {
    const body = `<!doctype html><html><head><title>Reading room page ${i}</title></head><body><p>Opening hours and maps, page ${i}.</p><a href="/p${(i + 1) % pages}.html">next</a></body></html>`;
    const r = WARCRecord.create(
      { url: `http://room.example.test/p${i}.html`, date: '2024-05-06T07:08:09Z', type: 'response', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/html; charset=utf-8' }, warcVersion: 'WARC/1.1' },
      [Buffer.from(body)],
    );
    parts.push(Buffer.from(await WARCSerializer.serialize(r, { gzip: true })));
  }
  writeFileSync(file, Buffer.concat(parts));
}

/**
 * Import… in the Library of the browser host, by keyboard: a WARC another tool wrote (warcio.js)
 * typed as a path, a new folder and a name; paused and resumed, the progress while it runs, the
 * outcome, and the archive in the list. The dialog, its progress and its outcome are saved at
 * 1400×900, light and dark (and checked with axe by shots()).
 */
test('Import… in the Library: a WARC from another tool, with progress, then in the list', async ({ page, harvest, offsiteRequests }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  const work = mkdtempSync(path.join(tmpdir(), 'harvest-e2e-import-'));
  try {
    const warc = path.join(work, 'reading-room.warc.gz');
    await warcOfPages(warc, PAGES);
    const outDir = path.join(harvest.dataDir, 'reading-room');

    await page.goto(harvest.url);
    await page.getByTestId('nav-library').click();
    await expect(page.getByTestId('library-empty')).toBeVisible();
    await page.getByRole('button', { name: 'Import…' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Import web archives' });
    await expect(dialog).toBeVisible();
    await expect(page.getByLabel(/WARC or WACZ files/)).toBeFocused();
    await page.keyboard.type(warc);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('New archive folder')).toBeFocused();
    await page.keyboard.type(outDir);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('Reading room, from another tool');
    await shots(page, 'import-dialog');

    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    const message = page.getByTestId('import-message');
    await expect(page.getByTestId('import-close')).toBeFocused();
    // Paused as soon as it starts (at its first record), then resumed.
    await page.getByTestId('import-pause').click();
    await expect(page.getByTestId('import-status')).toHaveAttribute('data-state', 'paused', { timeout: 120_000 });
    await expect(message).toHaveText(/^Paused at \d+%: .+ of .+, [\d,]+ records?\. Resume goes on from there/);
    await page.getByTestId('import-resume').click();
    await expect(message).toHaveText(/^(Reading records… [1-9]\d%: .+ of .+, [\d,]+ records|Writing the offline copy… \d+%)/);
    await shots(page, 'import-progress');

    await expect(page.getByTestId('import-status')).toHaveAttribute('data-state', 'done', { timeout: 200_000 });
    await expect(message).toHaveText(`Imported ${PAGES.toLocaleString('en-US')} records from 1 file in 1 capture into ${outDir}; it is in the library.`);
    await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '100');
    await shots(page, 'import-done');

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    const row = page.locator('[data-testid="archive-row"]', { hasText: 'Reading room, from another tool' });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('archive-pages')).toHaveText(PAGES.toLocaleString('en-US'));
    await expect(row).toContainText('finished');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  expect(offsiteRequests).toEqual([]);
});
