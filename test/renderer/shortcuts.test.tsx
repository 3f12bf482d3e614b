import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { App } from '../../renderer/App.js';
import { setApi } from '../../renderer/api/index.js';
import { useJobs } from '../../renderer/stores/jobs.js';
import { useNav } from '../../renderer/stores/nav.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, jobSummary, resetStores } from './helpers/fixtures.js';

const key = (k: string, target: Element = document.body) => act(() => void fireEvent.keyDown(target, { key: k }));

describe('keyboard shortcuts', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
    api = fakeApi({ 'jobs.start': () => ok(jobSummary('a', 'running')), 'jobs.pause': () => ok(jobSummary('a', 'pausing')), 'jobs.urls': () => ok({ total: 0, rows: [] }), 'app.info': () => ok(appInfo()) });
    setApi(api);
    useJobs.getState().setAll([jobSummary('a'), jobSummary('bb')]);
  });
  afterEach(cleanup);

  it('navigates, opens the form and the help, and drives the selected job', async () => {
    render(<App />);
    await key('g');
    await key('l');
    assert.equal(useNav.getState().screen, 'library');
    await key('g');
    await key('j');
    assert.equal(useNav.getState().screen, 'jobs');
    await key('j');
    assert.equal(useJobs.getState().selectedId, 'bb');
    await key('j');
    assert.equal(useJobs.getState().selectedId, 'a');
    await key('s');
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    assert.deepEqual(api.callsTo('jobs.start'), [{ id: 'a' }]);
    await key('s');
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    assert.deepEqual(api.callsTo('jobs.pause'), [{ id: 'a' }]);
    await key('?');
    assert.ok(screen.getByTestId('shortcuts-help'));
    await key('Escape');
    assert.equal(screen.queryByTestId('shortcuts-help'), null);
    await key('n');
    assert.ok(screen.getByTestId('job-form'));
  });

  it('resumes a failed job with s, and its banner offers the Resume button', async () => {
    api = fakeApi({ 'jobs.resume': () => ok(jobSummary('a', 'running')), 'jobs.urls': () => ok({ total: 0, rows: [] }), 'app.info': () => ok(appInfo()) });
    setApi(api);
    useJobs.getState().setAll([jobSummary('a', 'failed')]);
    useJobs.getState().select('a');
    render(<App />);
    assert.match(screen.getByTestId('job-error').textContent ?? '', /Resume it \(or press s\) to try again/);
    assert.ok(screen.getByTestId('job-resume'));
    await key('s');
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    assert.deepEqual(api.callsTo('jobs.resume'), [{ id: 'a' }]);
  });

  it('ignores keys typed into fields and focuses search with /', async () => {
    useJobs.getState().select('a');
    render(<App />);
    const search = screen.getByTestId('url-log-search');
    await key('/');
    assert.equal(document.activeElement, search);
    await key('n', search);
    assert.equal(screen.queryByTestId('job-form'), null);
  });

  it('leaves the keyboard to an open dialog', async () => {
    useJobs.getState().select('a');
    render(<App />);
    fireEvent.click(screen.getByTestId('job-delete'));
    await key('n');
    await key('?');
    assert.equal(screen.queryByTestId('job-form'), null);
    assert.equal(screen.queryByTestId('shortcuts-help'), null);
  });
});
