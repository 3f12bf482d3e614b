import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { JobSummary } from '../../shared/appViews.js';
import { expect, test } from './fixtures.js';

const SHOTS = path.join('test-results', 'screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

test('an archivist deletes a job but keeps its archive, then opens the folder in the library again; deleting the archive leaves their own files', async ({ page, harvest, site, api, offsiteRequests }) => {
  test.setTimeout(150_000);
  const dir = path.join(harvest.dataDir, 'kept-archive');
  const created = await api<JobSummary>('jobs.create', { job: { name: 'Kept site', seeds: [`${site.origin}/`], limits: { maxPages: 5 } }, archiveDir: dir });
  if (!created.ok) throw new Error(created.error.message);
  await api('jobs.start', { id: created.value.id });
  await expect
    .poll(async () => {
      const r = await api<JobSummary[]>('jobs.list');
      return r.ok ? r.value.find((j) => j.id === created.value.id)?.status : null;
    }, { timeout: 60_000 })
    .toBe('finished');

  await page.goto(harvest.url);
  await page.getByTestId('nav-library').click();
  const row = page.locator(`[data-testid="archive-row"][data-job-id="${created.value.id}"]`);
  const pages = (await row.getByTestId('archive-pages').textContent())!;
  expect(Number(pages)).toBeGreaterThan(0);

  await test.step('delete the job, keeping the folder (the default)', async () => {
    await row.getByTestId('archive-delete').click();
    await expect(page.getByTestId('archive-delete-keep')).toBeChecked();
    await shot(page, 'library-delete-dialog');
    await page.getByTestId('archive-delete-confirm-ok').click();
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId('delete-report-text')).toContainText(`kept at ${dir}`);
    await shot(page, 'library-deleted-kept');
    expect(existsSync(path.join(dir, 'catalogue.sqlite'))).toBe(true);
    expect(existsSync(path.join(dir, 'mirror', 'index.html'))).toBe(true);
  });

  let reopenedId = '';
  await test.step('Open archive… adds the kept folder back, with its pages', async () => {
    await page.getByTestId('library-open').click();
    await page.getByTestId('library-open-path').fill(dir);
    await shot(page, 'library-open-archive');
    await page.getByTestId('library-open-add').click();
    const reopened = page.locator('[data-testid="archive-row"]', { hasText: 'Kept site' });
    await expect(reopened).toHaveCount(1);
    await expect(reopened.getByTestId('archive-pages')).toHaveText(pages);
    await expect(reopened).toContainText(/finished/i);
    reopenedId = (await reopened.getAttribute('data-job-id'))!;
    await shot(page, 'library-reopened');
    await reopened.getByTestId('archive-open').click();
    await expect(page.getByTestId('viewer-frame')).toBeVisible();
    await expect(page.getByTestId('page-item').first()).toBeVisible();
  });

  await test.step('deleting it with its archive removes what Harvest made and leaves the notes', async () => {
    writeFileSync(path.join(dir, 'my-notes.txt'), 'mine');
    await page.getByTestId('nav-library').click();
    await page.locator(`[data-testid="archive-row"][data-job-id="${reopenedId}"]`).getByTestId('archive-delete').click();
    await page.getByTestId('archive-delete-files').check();
    await page.getByTestId('archive-delete-confirm-ok').click();
    await expect(page.getByTestId('delete-report-text')).toContainText('my-notes.txt');
    await shot(page, 'library-deleted-archive-left-notes');
    expect(readdirSync(dir)).toEqual(['my-notes.txt']);
  });
  expect(offsiteRequests).toEqual([]);
});
