import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ExtractedTable, FocusReport } from '../../shared/extracted.js';
import { parseTemplate, type Template } from '../../shared/template.js';
import { setApi } from '../../renderer/api/index.js';
import { csvOf, ExtractedRecords, sorted } from '../../renderer/features/ExtractedRecords/ExtractedRecords.js';
import { FocusReportView } from '../../renderer/features/FocusReport/index.js';
import { JobForm } from '../../renderer/features/JobForm/index.js';
import { EMPTY_TEMPLATE_DRAFT, templateDraftOf, templateFromDraft } from '../../renderer/lib/templateDraft.js';
import { useApp } from '../../renderer/stores/app.js';
import { useJobs } from '../../renderer/stores/jobs.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, jobSummary, resetStores } from './helpers/fixtures.js';

/** The issue's core example, plus seed discovery. */
const CORE: Template = parseTemplate({
  topic: { keywords: ['flood risk', { term: '洪水', weight: 2, synonyms: ['防洪'] }], threshold: 0.3 },
  filters: [['environment', 'flooding'], ['flood']],
  nextPage: ['next', '下一页'],
  extract: { phone: { keywords: ['phone', 'tel', '电话'] }, email: { keywords: ['email', '邮箱'], regex: '[^@\\s]+@[^@\\s]+' } },
  nearDuplicate: { maxHamming: 3 },
  seeds: { search: ['http://a.test/search?q={q}&page={page}'], sitemaps: true },
});

describe('template draft', () => {
  it('round-trips a template through the form fields', () => {
    const draft = templateDraftOf(CORE);
    assert.equal(draft.keywords, 'flood risk\n洪水 *2 = 防洪');
    assert.equal(draft.extract, 'phone: phone, tel, 电话\nemail: email, 邮箱 /[^@\\s]+@[^@\\s]+/');
    const back = templateFromDraft(draft);
    assert.deepEqual(back.issues, {});
    assert.deepEqual(back.template, CORE);
    assert.equal(templateFromDraft(EMPTY_TEMPLATE_DRAFT).template, null);
  });

  it('checks with the template schema, each message on its field naming the line and the template field', () => {
    const draft = { ...templateDraftOf(CORE), keywords: 'flood risk\n洪水 *-1', extract: 'email: email /(/\nfax', search: 'http://a.test/search?page={page}', maxHamming: '40' };
    const r = templateFromDraft(draft);
    assert.equal(r.template, null);
    assert.deepEqual(r.issues, {
      keywords: ['line 2, weight: Too small: expected number to be >0'],
      extract: ["line 2: write 'name: label, label /regex/'", 'email, regex: is not a valid regular expression'],
      search: ['line 1: must contain {q} where the search keywords go'],
      maxHamming: ['maxHamming: Too big: expected number to be <=16'],
    });
    assert.deepEqual(templateFromDraft({ ...EMPTY_TEMPLATE_DRAFT, enabled: true, threshold: 'high' }).issues, {
      threshold: ["'high' is not a number"],
      keywords: ['needs at least one keyword'],
    });
  });
});

describe('job form: focused harvest', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
    useApp.setState({ info: appInfo('web') });
    api = fakeApi({ 'jobs.create': () => ok(jobSummary('new1')) });
    setApi(api);
  });
  afterEach(cleanup);

  const change = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
  const save = async () => {
    await act(async () => {
      fireEvent.click(screen.getByTestId('job-form-save'));
    });
  };

  it('attaches a template to a new job, and refuses one with issues, showing them on its fields', async () => {
    render(<JobForm mode={{ kind: 'create' }} onDone={() => {}} />);
    change('job-field-seeds', 'http://a.test/');
    assert.equal(screen.queryByTestId('template-keywords'), null, 'the template fields show once the harvest is focused');
    fireEvent.click(screen.getByTestId('template-enabled'));
    change('template-keywords', 'flood *0');
    await save();
    assert.equal(api.callsTo('jobs.create').length, 0);
    assert.equal(screen.getByTestId('template-keywords-issues').textContent, 'line 1, weight: Too small: expected number to be >0');
    assert.equal(document.activeElement, screen.getByTestId('template-keywords'));

    change('template-keywords', 'flood risk\n洪水 *2 = 防洪');
    change('template-extract', 'phone: phone, 电话');
    await save();
    const sent = api.callsTo('jobs.create')[0] as { job: { template: Template } };
    assert.deepEqual(sent.job.template.topic.keywords, ['flood risk', { term: '洪水', weight: 2, synonyms: ['防洪'] }]);
    assert.deepEqual(sent.job.template.extract, { phone: { keywords: ['phone', '电话'], synonyms: [] } });
  });

  it("edits a job's template: the form starts from it, and unticking removes it", async () => {
    const existing = jobSummary('e1');
    existing.job.template = CORE;
    useJobs.getState().upsert(existing);
    setApi((api = fakeApi({ 'jobs.update': () => ok(existing) })));
    render(<JobForm mode={{ kind: 'edit', id: 'e1' }} onDone={() => {}} />);
    assert.equal((screen.getByTestId('template-enabled') as HTMLInputElement).checked, true);
    assert.equal((screen.getByTestId('template-search') as HTMLTextAreaElement).value, 'http://a.test/search?q={q}&page={page}');
    assert.equal((screen.getByTestId('template-sitemaps') as HTMLInputElement).checked, true);
    fireEvent.click(screen.getByTestId('template-enabled'));
    await save();
    assert.equal((api.callsTo('jobs.update')[0] as { job: { template: Template | null } }).job.template, null);
  });
});

const TABLE: ExtractedTable = {
  fields: ['phone', 'email'],
  truncated: false,
  records: [
    { url: 'http://b.test/contact', capture: '2026-11-25T10:00:00.000Z', duplicateOf: null, fields: { phone: { value: '010-6512 3456', confidence: 0.95 } } },
    { url: 'http://a.test/contact', capture: '2026-11-25T10:00:01.000Z', duplicateOf: 'http://b.test/contact', fields: { phone: { value: '+44 1632 960001', confidence: 0.8 }, email: { value: 'a@a.test', confidence: 0.95 } } },
    { url: 'http://c.test/about', capture: '2026-11-25T10:00:02.000Z', duplicateOf: null, fields: { email: { value: 'x, "y"@c.test', confidence: 0.5 } } },
  ],
};

describe('extracted records', () => {
  afterEach(cleanup);

  it('sorts by any column (empty cells last), and exports the rows in the shown order as CSV', async () => {
    const api = fakeApi({ 'archives.extracted': () => ok(TABLE) });
    setApi(api);
    await act(async () => {
      render(<ExtractedRecords id="j1" version="finished" />);
    });
    assert.deepEqual(api.callsTo('archives.extracted'), [{ id: 'j1', limit: 10_000 }]);
    const firstColumn = () => [...screen.getByTestId('extracted-table').querySelectorAll('tbody tr')].map((tr) => tr.querySelector('td')!.firstChild!.textContent);
    assert.deepEqual(firstColumn(), ['http://a.test/contact', 'http://b.test/contact', 'http://c.test/about']);
    fireEvent.click(screen.getByTestId('extracted-sort-phone'));
    assert.deepEqual(firstColumn(), ['http://a.test/contact', 'http://b.test/contact', 'http://c.test/about'], '+44 before 010, the empty phone last');
    fireEvent.click(screen.getByTestId('extracted-sort-phone'));
    assert.deepEqual(firstColumn(), ['http://b.test/contact', 'http://a.test/contact', 'http://c.test/about']);
    assert.equal(screen.getByTestId('extracted-count').textContent, '3 records');
    // A near-duplicate's record names the page it repeats.
    assert.deepEqual(screen.getAllByTestId('extracted-repeats').map((e) => e.textContent), ['near-duplicate of http://b.test/contact']);
    assert.deepEqual(
      sorted(TABLE.records, 'email', true).map((r) => r.url),
      ['http://a.test/contact', 'http://c.test/about', 'http://b.test/contact'],
    );
    assert.equal(
      csvOf(TABLE, sorted(TABLE.records, 'url', false)),
      'url,capture,duplicate_of,phone,phone_confidence,email,email_confidence\r\n' +
        'http://c.test/about,2026-11-25T10:00:02.000Z,,,,"x, ""y""@c.test",0.5\r\n' +
        'http://b.test/contact,2026-11-25T10:00:00.000Z,,010-6512 3456,0.95,,\r\n' +
        "http://a.test/contact,2026-11-25T10:00:01.000Z,http://b.test/contact,'+44 1632 960001,0.8,a@a.test,0.95\r\n", // kept as text, not a formula
    );
  });
});

const REPORT: FocusReport = {
  fields: [
    { field: 'phone', pages: 2, values: 3, sample: [{ url: 'http://b.test/contact', value: '010-6512 3456' }, { url: 'http://a.test/contact', value: '+44 1632 960001' }, { url: 'http://a.test/contact', value: '+44 1632 960002' }] },
    { field: 'fax', pages: 0, values: 0, sample: [] },
  ],
  nearDuplicates: [
    {
      original: 'http://b.test/news/1',
      copies: [
        { url: 'http://b.test/news/1/print', similarity: 0.953125, notDuplicate: false },
        { url: 'http://c.test/repost', similarity: 1, notDuplicate: true },
      ],
    },
  ],
};

describe('focus report', () => {
  afterEach(cleanup);

  it('shows per field the pages, values and a sample, the near-duplicate groups, and marks a copy not a duplicate and back', async () => {
    const api = fakeApi({
      'archives.focusReport': () => ok(REPORT),
      'archives.markNotDuplicate': (a) => ok({ url: a.url, notDuplicate: a.notDuplicate }),
    });
    setApi(api);
    await act(async () => {
      render(<FocusReportView id="j1" version="finished" />);
    });
    assert.deepEqual(api.callsTo('archives.focusReport'), [{ id: 'j1' }]);
    const fields = screen.getAllByTestId('focus-field');
    assert.deepEqual(fields.map((f) => [f.querySelector('th')!.textContent, ...[...f.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)]), [
      ['phone', '2', '3'],
      ['fax', '0', '0'],
    ]);
    assert.deepEqual(
      [...screen.getByTestId('focus-field-sample').querySelectorAll('.focus-value')].map((v) => v.textContent),
      ['010-6512 3456', '+44 1632 960001', '+44 1632 960002'],
    );
    assert.match(fields[1]!.textContent!, /none found/);

    assert.deepEqual(screen.getAllByTestId('focus-dup-original').map((e) => e.textContent), ['http://b.test/news/1']);
    const rows = () => screen.getAllByTestId('focus-dup-copy').map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent));
    assert.deepEqual(rows(), [
      ['http://b.test/news/1/print', '95.3%', 'Not a duplicate'],
      ['http://c.test/repost', '100%', 'Not a duplicate Undo'],
    ]);
    assert.equal(screen.getByTestId('focus-dups-count').textContent!.startsWith('2 pages flagged as copies of 1 original.'), true);

    // The print version is marked by its labelled button; the same button then undoes it.
    const print = screen.getByRole('button', { name: 'Not a duplicate: http://b.test/news/1/print' });
    await act(async () => {
      fireEvent.click(print);
    });
    assert.deepEqual(api.callsTo('archives.markNotDuplicate'), [{ id: 'j1', url: 'http://b.test/news/1/print', notDuplicate: true }]);
    assert.equal(print.textContent, 'Undo');
    assert.equal(print.getAttribute('aria-label'), 'Undo: flag http://b.test/news/1/print as a near-duplicate again');
    assert.match(screen.getByTestId('focus-dups-said').textContent!, /the next re-crawl judges it as an original/);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Undo: flag http://c.test/repost as a near-duplicate again' }));
    });
    assert.deepEqual(api.callsTo('archives.markNotDuplicate')[1], { id: 'j1', url: 'http://c.test/repost', notDuplicate: false });
    assert.deepEqual(rows(), [
      ['http://b.test/news/1/print', '95.3%', 'Not a duplicate Undo'],
      ['http://c.test/repost', '100%', 'Not a duplicate'],
    ]);
  });

  it('keeps the flag as it was when the host refuses the mark', async () => {
    const api = fakeApi({
      'archives.focusReport': () => ok(REPORT),
      'archives.markNotDuplicate': () => ({ ok: false, error: { code: 'not-found', message: 'not a page flagged as a near-duplicate' } }),
    });
    setApi(api);
    await act(async () => {
      render(<FocusReportView id="j1" version="finished" />);
    });
    const print = screen.getByRole('button', { name: 'Not a duplicate: http://b.test/news/1/print' });
    await act(async () => {
      fireEvent.click(print);
    });
    assert.equal(print.textContent, 'Not a duplicate');
    assert.equal(print.getAttribute('aria-disabled'), null);
  });
});
