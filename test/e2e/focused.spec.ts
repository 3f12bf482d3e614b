import type { FocusReport } from '../../shared/extracted.js';
import { FLOOD_TEMPLATE, startFocusSite, type FocusSite } from '../helpers/focusSite.js';
import { expect, test } from './fixtures.js';
import { shots } from './screenshots.js';

/**
 * A focused harvest from the app: a template filled in the job form (contact details, English and
 * Chinese labels), crawled over the generated three-site test server; the progress view shows the
 * harvest rate and the job the extracted records, sortable, and the extraction report; a flood
 * harvest's near-duplicate groups, a false flag marked and undone from the keyboard. Screens saved
 * at 1400×900, light and dark, and checked with axe.
 */

let site: FocusSite;

test.beforeAll(async () => {
  site = await startFocusSite();
});

test.afterAll(async () => {
  await site.close();
});

test('a focused harvest: a template in the job form, the harvest rate, the extracted records', async ({ page, harvest }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(harvest.url);
  await page.getByTestId('nav-jobs').click();
  await page.getByTestId('job-new').click();
  await page.getByTestId('job-field-name').fill('Council contacts');
  await page.getByTestId('job-field-seeds').fill(site.truth.origins.map((o) => `${o}/`).join('\n'));
  await page.getByTestId('job-field-politeness.delayMs').fill('0');
  await page.getByTestId('template-enabled').check();
  await page.getByTestId('template-keywords').fill('contact\n联系 *0');
  await page.getByTestId('template-keywords').blur();
  await expect(page.getByTestId('template-keywords-issues')).toHaveText('line 2, weight: Too small: expected number to be >0');
  await page.getByTestId('template-keywords').fill('contact\n联系');
  await page.getByTestId('template-filters').fill('contact, 联系我们');
  await page
    .getByTestId('template-extract')
    .fill(['phone: phone, telephone, tel, 电话 /\\+?\\(?[0-9][0-9 ()\\-]{6,}[0-9]/', 'email: email, e-mail, 邮箱, 电子邮箱 /[^@\\s]+@[^@\\s]+\\.[a-z]+/'].join('\n'));
  await expect(page.getByTestId('template-keywords-issues')).toHaveCount(0);
  await page.getByTestId('template-fields').scrollIntoViewIfNeeded();
  await shots(page, 'focused-template-form');
  await page.getByTestId('job-form-save').click();
  await expect(page.getByTestId('job-form')).toBeHidden();
  await page.locator('[data-testid="job-row"]', { hasText: 'Council contacts' }).first().click();
  await page.getByTestId('job-start').click();
  await expect(page.getByTestId('progress-harvest-rate')).toContainText(/harvest rate \d+(\.\d)?%/, { timeout: 60_000 });
  await expect(page.getByTestId('job-detail-status')).toHaveText(/finished/, { timeout: 180_000 });

  const table = page.getByTestId('extracted-table');
  await expect(table).toBeVisible();
  const contacts = [...site.truth.contacts.entries()];
  await expect(table.locator('tbody tr')).toHaveCount(contacts.length);
  // Every known contact page is a row with its known phone number.
  for (const [url, truth] of contacts) {
    const row = table.locator('tbody tr', { hasText: url });
    await expect(row).toHaveCount(1);
    if (truth.phone) await expect(row).toContainText(truth.phone);
  }
  await page.getByTestId('extracted-sort-phone').click();
  await expect(page.getByTestId('extracted-sort-phone')).toContainText('▲');
  await expect(page.getByTestId('progress-harvest-rate')).toContainText('relevant');
  await page.getByTestId('extracted-records').scrollIntoViewIfNeeded();
  await shots(page, 'focused-harvest');
  // The extraction report: the phone field found on contact pages, with values to check.
  const phone = page.locator('[data-testid="focus-field"]', { has: page.locator('th', { hasText: /^phone$/ }) });
  await expect(phone.getByTestId('focus-field-sample').locator('li').first()).toBeVisible();
  expect(Number(await phone.getByTestId('focus-field-pages').textContent())).toBeGreaterThan(0);
});

test("a focused harvest's report: near-duplicate groups, a false flag marked and undone from the keyboard", async ({ page, harvest, api }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(harvest.url);
  const created = await api<{ id: string }>('jobs.create', {
    job: { name: 'Flood pages', seeds: site.truth.origins.map((o) => `${o}/`), politeness: { delayMs: 0 }, template: FLOOD_TEMPLATE },
  });
  expect(created.ok).toBe(true);
  const id = created.ok ? created.value.id : '';
  await page.getByTestId('nav-jobs').click();
  await page.locator('[data-testid="job-row"]', { hasText: 'Flood pages' }).first().click();
  await page.getByTestId('job-start').click();
  await expect(page.getByTestId('job-detail-status')).toHaveText(/finished/, { timeout: 120_000 });

  const report = page.getByTestId('focus-report');
  await expect(report).toBeVisible();
  // Each print version is listed under the article it repeats.
  for (const [url, of] of site.truth.nearDuplicates) {
    await expect(report.locator('[data-testid="focus-dup-group"]', { hasText: of }).locator('[data-testid="focus-dup-copy"]', { hasText: url })).toHaveCount(1);
  }
  const [print] = [...site.truth.nearDuplicates.keys()];
  const mark = page.getByRole('button', { name: `Not a duplicate: ${print}` });
  await mark.focus();
  await page.keyboard.press('Enter');
  const undo = page.getByRole('button', { name: `Undo: flag ${print} as a near-duplicate again` });
  await expect(undo).toBeFocused();
  await expect(page.getByTestId('focus-dups-said')).toContainText('the next re-crawl judges it as an original');
  const marked = await api<FocusReport>('archives.focusReport', { id });
  expect(marked.ok && marked.value.nearDuplicates.flatMap((g) => g.copies).find((c) => c.url === print)?.notDuplicate).toBe(true);
  await report.scrollIntoViewIfNeeded();
  await page.getByTestId('focus-dups').scrollIntoViewIfNeeded();
  await shots(page, 'focused-report');

  await page.keyboard.press('Enter');
  await expect(mark).toBeFocused();
  const undone = await api<FocusReport>('archives.focusReport', { id });
  expect(undone.ok && undone.value.nearDuplicates.flatMap((g) => g.copies).find((c) => c.url === print)?.notDuplicate).toBe(false);
});
