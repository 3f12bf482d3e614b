import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { JobSummary } from '../../shared/appViews.js';
import type { MetadataSuggestion } from '../../shared/metadata.js';
import { expect, test } from './fixtures.js';

const SHOTS = path.join('test-results', 'screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

test('the Dublin Core editor: prefilled from the crawl, checked as typed, Save in view, saved into the copy', async ({ page, harvest, site, api, offsiteRequests }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(harvest.url);
  const created = await api<JobSummary>('jobs.create', {
    job: { name: 'Described site', seeds: [`${site.origin}/`], limits: { maxPages: 5 } },
  });
  if (!created.ok) throw new Error(created.error.message);
  const job = created.value;
  const started = await api('jobs.start', { id: job.id });
  if (!started.ok) throw new Error(started.error.message);
  await expect
    .poll(async () => {
      const list = await api<JobSummary[]>('jobs.list');
      return list.ok ? list.value.find((j) => j.id === job.id)?.status : undefined;
    }, { timeout: 60_000 })
    .toBe('finished');
  const suggestion = await api<MetadataSuggestion>('archives.suggestMetadata', { id: job.id });
  if (!suggestion.ok) throw new Error(suggestion.error.message);
  expect(suggestion.value.title).not.toBe('');

  await page.getByTestId('nav-library').click();
  await page.locator(`[data-testid="archive-row"][data-job-id="${job.id}"]`).getByTestId('archive-metadata').click();
  const editor = page.getByTestId('metadata-editor');
  await expect(editor).toBeVisible();
  await expect(page.getByTestId('metadata-title')).toHaveValue(suggestion.value.title);
  await expect(page.getByTestId('metadata-date')).toHaveValue(/^\d{4}-\d{2}-\d{2}(\/\d{4}-\d{2}-\d{2})?$/);
  await expect(page.getByTestId('metadata-title-suggested')).toBeVisible();
  await expect(page.getByTestId('metadata-save')).toBeInViewport();
  await shot(page, 'metadata-editor');

  await page.getByTestId('metadata-language').fill('en, english');
  await page.getByTestId('metadata-date').fill('last spring');
  await page.getByTestId('metadata-save').click();
  await expect(page.getByTestId('metadata-language-issues')).toContainText('"english" is not a BCP 47 language tag');
  await expect(page.getByTestId('metadata-date-issues')).toContainText('is not an ISO 8601 / EDTF date');
  await shot(page, 'metadata-editor-invalid');

  // On a small window only the fields scroll: Save stays where it can be clicked.
  await page.setViewportSize({ width: 900, height: 560 });
  await expect(page.getByTestId('metadata-save')).toBeInViewport();
  await page.setViewportSize({ width: 1400, height: 900 });

  await page.getByTestId('metadata-language').fill('en');
  await page.getByTestId('metadata-date').fill('2026-05~');
  await page.getByTestId('metadata-description').fill('A test harvest of the bench site.');
  await page.getByTestId('metadata-save').click();
  await expect(editor).toBeHidden();
  await expect(page.getByText(/Metadata of “Described site” saved/)).toBeVisible();
  await shot(page, 'metadata-saved');

  const index = readFileSync(path.join(job.archiveDir, 'mirror', 'index.html'), 'utf8');
  expect(index).toContain(`<h1>${suggestion.value.title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</h1>`);
  expect(index).toContain('<p>A test harvest of the bench site.</p>');
  expect(offsiteRequests).toEqual([]);
});
