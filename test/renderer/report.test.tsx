import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { Report } from '../../renderer/features/Report/index.js';
import { useApp } from '../../renderer/stores/app.js';
import { useArchives } from '../../renderer/stores/archives.js';
import { useNav } from '../../renderer/stores/nav.js';
import type { ArchiveSummary } from '../../shared/appViews.js';
import type { QaReport } from '../../shared/report.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { appInfo, resetStores } from './helpers/fixtures.js';

const archive = (jobId: string, status: ArchiveSummary['status'] = 'finished'): ArchiveSummary => ({
  jobId,
  name: `Archive ${jobId}`,
  seeds: [`http://${jobId}.test/`],
  archiveDir: `/data/${jobId}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-02T00:00:00.000Z',
  status,
  pages: 10,
  bytesOnDisk: 2048,
});

const report = (name: string): QaReport => ({
  generatedAt: '2026-01-03T00:00:00.000Z',
  generator: 'Harvest/0.1.0',
  archiveDir: '/data/a',
  stats: {
    name,
    seeds: ['http://a.test/'],
    state: 'finished',
    counts: { discovered: 1290, queued: 0, inFlight: 0, archived: 1234, redirects: 3, httpErrors: 2, failed: 1, skipped: 50, skippedByReason: { scope: 50 }, bytes: 5_000_000 },
    byState: { queued: 0, 'in-flight': 0, archived: 1234, redirect: 3, 'http-error': 2, failed: 1, skipped: 50 } as QaReport['stats']['byState'],
    startedAt: '2026-01-01T10:00:00.000Z',
    finishedAt: '2026-01-01T11:00:00.000Z',
    durationMs: 3_600_000,
    robotsPolicy: 'obeyed',
    message: null,
  },
  scope: { mode: 'host', include: [], exclude: ['/private/'], offsiteRequisites: true, allowNetworks: ['10.20.0.0/16'], limits: { maxPages: 5000, maxDepth: null } },
  dates: { createdAt: '2026-01-01T09:59:00.000Z', startedAt: '2026-01-01T10:00:00.000Z', finishedAt: '2026-01-01T11:00:00.000Z' },
  byMimeType: [
    { mimeType: 'text/html', count: 1000, bytes: 4_000_000 },
    { mimeType: 'image/png', count: 234, bytes: 1_000_000 },
  ],
  skipped: [{ reason: 'scope', count: 50, examples: ['http://other.test/x', 'http://other.test/y'] }],
  trapGuards: [],
  httpErrors: [{ status: 404, count: 2, examples: ['http://a.test/gone'] }],
  failures: [{ reason: 'timeout', count: 1, examples: ['http://a.test/slow'] }],
  robots: { policy: 'obeyed', sites: [{ site: 'http://a.test', httpStatus: 200, error: null, fetchedAt: '2026-01-01T10:00:01.000Z' }] },
  largestFiles: [{ url: 'http://a.test/big.pdf', contentType: 'application/pdf', bytes: 900_000 }],
  absoluteLinks: [{ reason: 'HTTP 404', count: 2, examples: [{ from: 'http://a.test/', to: 'http://a.test/gone' }] }],
  thumbnails: [{ url: 'http://a.test/', image: 'thumbnails/a.test/index.html.png' }],
  checksums: { payloadDigests: 1200, algorithm: 'sha256', warcFiles: [{ name: 'harvest-1.warc.gz', bytes: 4_500_000, sha256: 'ab'.repeat(32) }] },
  search: { indexed: true, urls: 1000, texts: 990 },
  metadata: [['Description', 'The lab pages, before the move']],
  analysis: null,
});

const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));

describe('report screen', () => {
  let api: FakeApi;
  beforeEach(() => {
    resetStores();
    useApp.setState({ info: appInfo('web') });
    useArchives.setState({ list: [archive('a'), archive('b', 'running')], loaded: true });
    api = fakeApi({
      'archives.report': (a) =>
        a.id === 'b'
          ? { ok: false, error: { code: 'conflict', message: 'the QA report of "Archive b" is made when its crawl is not running: pause it or wait until it finishes' } }
          : ok(report(`Archive ${a.id}`)),
    });
    setApi(api);
  });
  afterEach(cleanup);

  it('shows the figures and lists of the archive chosen in the library', async () => {
    useNav.getState().openReport('a');
    render(<Report />);
    await settle();
    assert.deepEqual(api.callsTo('archives.report'), [{ id: 'a' }]);
    assert.equal(screen.getByTestId('report-name').textContent, 'QA report: Archive a');
    assert.equal(screen.getByTestId('report-state-archived').textContent, '1,234');
    assert.equal(screen.getByTestId('report-state-http-error').textContent, '2');
    const mime = screen.getAllByTestId('report-mime-row').map((r) => r.textContent);
    assert.match(mime[0] ?? '', /text\/html.*1,000/);
    assert.match(within(screen.getByTestId('report-skipped')).getByText('http://other.test/y').textContent ?? '', /other/);
    assert.match(screen.getByTestId('report-traps-empty').textContent ?? '', /No trap guard/);
    assert.match(screen.getByTestId('report-http-errors').textContent ?? '', /404.*http:\/\/a\.test\/gone/);
    assert.match(screen.getByTestId('report-failures').textContent ?? '', /timeout/);
    assert.match(screen.getByTestId('report-robots').textContent ?? '', /Policy: obeyed.*HTTP 200/);
    assert.match(screen.getByTestId('report-absolute').textContent ?? '', /HTTP 404.*http:\/\/a\.test\/ → http:\/\/a\.test\/gone/);
    assert.match(screen.getByTestId('report-checksums').textContent ?? '', new RegExp(`harvest-1\\.warc\\.gz.*${'ab'.repeat(32)}`));
    assert.match(screen.getByTestId('report-harvest').textContent ?? '', /exclude \/private\/.*Max depth: none, Max pages: 5,000.*1 h.*1,000 documents/);
    assert.match(screen.getByTestId('report-metadata').textContent ?? '', /Description.*The lab pages, before the move/);
    assert.match(screen.getByTestId('report-states').textContent ?? '', /5\.0 MB/, 'sizes in SI units');
    // A home page's thumbnail comes from its archive's own origin.
    const img = within(screen.getByTestId('report-thumbnails')).getByRole('img') as HTMLImageElement;
    assert.equal(img.getAttribute('src'), `${appInfo().viewerBase}a/.thumbnails/a.test/index.html.png`);
  });

  it('offers the report as an HTML download on the web host, and the command in the desktop app', async () => {
    useNav.getState().openReport('a');
    const { unmount } = render(<Report />);
    await settle();
    assert.equal(screen.getByTestId('report-download').getAttribute('href'), 'report/a');
    unmount();
    useApp.setState({ info: appInfo('electron') });
    render(<Report />);
    await settle();
    assert.equal(screen.queryByTestId('report-download'), null);
  });

  it('switches archive, and says why a running crawl has no report yet', async () => {
    useNav.getState().openReport('a');
    render(<Report />);
    await settle();
    fireEvent.change(screen.getByTestId('report-archive'), { target: { value: 'b' } });
    await settle();
    assert.match(screen.getByTestId('report-error').textContent ?? '', /not running: pause it/);
    assert.equal(screen.queryByTestId('report-name'), null);
    fireEvent.change(screen.getByTestId('report-archive'), { target: { value: 'a' } });
    await settle();
    fireEvent.click(screen.getByTestId('report-refresh'));
    await settle();
    assert.deepEqual(api.callsTo('archives.report'), [{ id: 'a' }, { id: 'b' }, { id: 'a' }, { id: 'a' }]);
    assert.equal(screen.getByTestId('report-name').textContent, 'QA report: Archive a');
  });
});
