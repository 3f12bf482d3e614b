import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { JobForm } from '../../renderer/features/JobForm/index.js';
import { draftFromJob, draftToInput, issuesByField } from '../../renderer/lib/jobDraft.js';
import { useApp } from '../../renderer/stores/app.js';
import { useJobs } from '../../renderer/stores/jobs.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, jobSummary, resetStores } from './helpers/fixtures.js';

const field = (path: string) => screen.getByTestId(`job-field-${path}`) as HTMLInputElement;
const issuesOf = (path: string) => screen.queryByTestId(`job-field-${path}-issues`)?.textContent ?? null;
const type = (path: string, value: string) => fireEvent.change(field(path), { target: { value } });
const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByTestId('job-form-save'));
  });
};

describe('job draft', () => {
  it('round-trips a job, scaling units, and reports issues by field', () => {
    const info = appInfo();
    const draft = draftFromJob({ ...info.defaults, seeds: ['http://a.test/'], limits: { ...info.defaults.limits, maxDurationMs: 120_000 } });
    assert.equal(draft['limits.maxDurationMs'], '2');
    assert.equal(draft['limits.maxPages'], '');
    const { input, issues } = draftToInput({ ...draft, seeds: 'http://a.test/\nnot a url', 'limits.maxPages': 'ten' });
    assert.deepEqual(issuesByField(issues), { 'limits.maxPages': ['must be a number, 0 or more'], seeds: ['line 2: must be an absolute http:// or https:// URL'] });
    assert.equal((input.limits as { maxDurationMs: number }).maxDurationMs, 120_000);
    const second = draftToInput({ ...draft, seeds: 'http://a.test/\nnot a url' });
    assert.deepEqual(issuesByField(second.issues), { seeds: ['line 2: must be an absolute http:// or https:// URL'] });
  });
});

describe('job draft: rendering', () => {
  it('sets rendering, its page pool and its time limit in seconds', () => {
    const info = appInfo();
    const draft = draftFromJob({ ...info.defaults, seeds: ['http://a.test/'] });
    assert.equal(draft['render.enabled'], false);
    const { input, issues } = draftToInput({ ...draft, 'render.enabled': true, 'render.pages': '3', 'render.pageTimeoutMs': '45' });
    assert.deepEqual(issues, []);
    assert.deepEqual(
      { enabled: (input.render as Record<string, unknown>).enabled, pages: (input.render as Record<string, unknown>).pages, ms: (input.render as Record<string, unknown>).pageTimeoutMs },
      { enabled: true, pages: 3, ms: 45_000 },
    );
    assert.deepEqual(issuesByField(draftToInput({ ...draft, 'render.pages': '0' }).issues), { 'render.pages': ['Too small: expected number to be >=1'] });
  });
});

describe('job form', () => {
  let api: FakeApi;
  let done = 0;

  beforeEach(() => {
    resetStores();
    done = 0;
    useApp.setState({ info: appInfo('web') });
    api = fakeApi({
      'jobs.create': (a) => ok({ ...jobSummary('new1'), job: { ...jobSummary('new1').job, seeds: (a.job as { seeds: string[] }).seeds } }),
    });
    setApi(api);
  });
  afterEach(cleanup);

  it('shows defaults and hides the folder dialog on the web host', () => {
    render(<JobForm mode={{ kind: 'create' }} onDone={() => done++} />);
    assert.equal(field('politeness.perHostConnections').value, '2');
    assert.match(document.body.textContent ?? '', /Default: 2/);
    // The contact is no limit: unset, it is none.
    const contactHint = field('contactUrl').closest('.field')?.querySelector('.hint')?.textContent ?? '';
    assert.match(contactHint, /Default: none$/);
    // The default folder in full, not cut at the field's width as a placeholder would be.
    assert.match(screen.getByTestId('job-archive-dir-hint').textContent ?? '', /^Default: a new folder in \//);
    assert.equal(screen.queryByTestId('job-choose-folder'), null);
  });

  it('offers the folder dialog in Electron', async () => {
    useApp.setState({ info: appInfo('electron') });
    setApi(fakeApi({ 'dialog.chooseFolder': () => ok({ path: '/chosen' }) }));
    render(<JobForm mode={{ kind: 'create' }} onDone={() => done++} />);
    await act(async () => {
      fireEvent.click(screen.getByTestId('job-choose-folder'));
    });
    assert.equal((screen.getByTestId('job-archive-dir') as HTMLInputElement).value, '/chosen');
  });

  it('shows local validation messages per field and sends nothing', async () => {
    render(<JobForm mode={{ kind: 'create' }} onDone={() => done++} />);
    await save();
    assert.equal(issuesOf('seeds'), 'at least one seed URL is needed');
    assert.equal(document.activeElement, field('seeds'), 'focus moves to the first field in error');
    type('seeds', 'ftp://a.test/');
    type('limits.maxPages', '-3');
    type('scope.include', '([unclosed');
    await save();
    assert.match(issuesOf('seeds') ?? '', /line 1: must be an absolute http/);
    assert.equal(issuesOf('limits.maxPages'), 'must be a number, 0 or more');
    assert.equal(issuesOf('scope.include'), 'line 1: is not a valid regular expression');
    assert.equal(api.callsTo('jobs.create').length, 0);
    assert.equal(done, 0);
  });

  it("creates a valid job and shows the host's issues when it refuses one", async () => {
    render(<JobForm mode={{ kind: 'create' }} onDone={() => done++} />);
    type('seeds', 'http://a.test/');
    type('limits.maxPages', '50');
    await save();
    const args = api.callsTo('jobs.create')[0] as { job: { seeds: string[]; limits: { maxPages: number } } };
    assert.deepEqual(args.job.seeds, ['http://a.test/']);
    assert.equal(args.job.limits.maxPages, 50);
    assert.equal(done, 1);
    assert.equal(useJobs.getState().selectedId, 'new1');

    cleanup();
    setApi(fakeApi({ 'jobs.create': () => ({ ok: false, error: { code: 'invalid-job', message: 'no', issues: [{ path: 'seeds.0', message: 'host unreachable' }, { path: '', message: 'disk full' }] } }) }));
    render(<JobForm mode={{ kind: 'create' }} onDone={() => done++} />);
    type('seeds', 'http://a.test/');
    await save();
    assert.equal(issuesOf('seeds'), 'line 1: host unreachable');
    assert.equal(screen.getByTestId('job-form-issues').textContent, 'disk full');
    assert.equal(done, 1);
  });

  it('edits an existing job, keeping settings the form does not show', async () => {
    const existing = jobSummary('e1');
    existing.job.fetch.maxRetries = 9;
    useJobs.getState().upsert(existing);
    setApi((api = fakeApi({ 'jobs.update': () => ok(existing) })));
    render(<JobForm mode={{ kind: 'edit', id: 'e1' }} onDone={() => done++} />);
    assert.equal(field('name').value, 'Job e1');
    type('name', 'Renamed');
    await save();
    const args = api.callsTo('jobs.update')[0] as { id: string; job: { name: string; fetch: { maxRetries: number } } };
    assert.equal(args.id, 'e1');
    assert.equal(args.job.name, 'Renamed');
    assert.equal(args.job.fetch.maxRetries, 9);
  });

  it('sets the request settings: languages, headers, basic auth, cookies imported from a cookies.txt, and an adaptive delay by default', async () => {
    render(<JobForm mode={{ kind: 'create' }} onDone={() => done++} />);
    assert.equal(field('politeness.delayMs').value, '', 'the delay is adaptive unless one is given');
    assert.equal(field('politeness.delayMs').placeholder, 'adaptive');
    assert.equal(field('request.basicAuth.password').type, 'password');
    type('seeds', 'http://a.test/');
    type('request.acceptLanguage', 'fr, en;q=0.5');
    type('request.headers', 'X-Collection: theses');
    type('request.basicAuth.username', 'staff');
    type('request.basicAuth.password', 's3cret');
    const file = new File(['# Netscape HTTP Cookie File\na.test\tFALSE\t/\tFALSE\t0\tsession\tabc\n'], 'cookies.txt', { type: 'text/plain' });
    await act(async () => {
      fireEvent.change(field('request.cookies'), { target: { files: [file] } });
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    assert.equal(screen.getByTestId('job-field-request.cookies-count').textContent, '1 cookie');
    await save();
    const args = api.callsTo('jobs.create')[0] as { job: { politeness: { delayMs: number | null }; request: Record<string, unknown> } };
    assert.equal(args.job.politeness.delayMs, null);
    assert.equal(args.job.request.acceptLanguage, 'fr, en;q=0.5');
    assert.deepEqual(args.job.request.headers, ['X-Collection: theses']);
    assert.deepEqual(args.job.request.basicAuth, { username: 'staff', password: 's3cret', urlPrefix: '' });
    assert.deepEqual(args.job.request.cookies, [{ domain: 'a.test', includeSubdomains: false, path: '/', secure: false, expires: 0, name: 'session', value: 'abc' }]);
  });
});
