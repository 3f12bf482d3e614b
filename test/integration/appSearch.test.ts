/**
 * The app's search and QA report over the host's commands (`harvest serve`'s HTTP API, the same
 * handler the desktop app's IPC uses): archives crawled by `harvest crawl`, added with
 * archives.open, searched one at a time and together, with their mirror paths for the viewer.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../shared/contract.js';
import type { ArchiveSummary, JobSummary, PageRow, Paged } from '../../shared/appViews.js';
import type { QaReport } from '../../shared/report.js';
import type { SearchReply } from '../../shared/search.js';
import { startWebHost, type WebHost } from '../../electron/host/webHost.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const page = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

function site(pages: Record<string, string>): Server {
  return createServer((req, res) => {
    const body = pages[(req.url ?? '/').split('?')[0]!];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
  });
}

describe('search and report in the app', { timeout: 240_000 }, () => {
  let work: string;
  let servers: Server[] = [];
  let web: WebHost;
  let one: JobSummary;
  let two: JobSummary;
  let bare: JobSummary;
  let originOne: string;

  const api = async <T>(command: string, body: unknown): Promise<Reply<T>> => {
    const res = await fetch(`${web.url}api/${command}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as Reply<T>;
  };
  const value = async <T>(command: string, body: unknown): Promise<T> => {
    const r = await api<T>(command, body);
    assert.ok(r.ok, JSON.stringify(r));
    return r.value;
  };
  const crawl = async (pages: Record<string, string>, out: string): Promise<string> => {
    const server = site(pages);
    servers.push(server);
    const origin = await listenOnLoopback(server);
    const r = await runHarvest(['crawl', `${origin}/`, '--out', out, '--delay-ms', '0', '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    return origin;
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-app-search-'));
    originOne = await crawl(
      {
        '/': page('Reading rooms', '<a href="/once.html">once</a> <a href="/many.html">many</a> <a href="/cafe.html">café</a>'),
        '/once.html': page('Once', '<p>The quillfeather manuscript was catalogued in the reading room.</p>'),
        '/many.html': page('Many', '<p>Quillfeather manuscript.</p><p>A second quillfeather manuscript, a third quillfeather manuscript.</p>'),
        '/cafe.html': page('Café', '<p>The museum café sells <b>postcards</b> &amp; quillfeather prints.</p>'),
      },
      path.join(work, 'one'),
    );
    await crawl({ '/': page('Other', '<p>Another quillfeather, in another archive.</p>') }, path.join(work, 'two'));
    await crawl({ '/': page('Bare', '<p>quillfeather</p>') }, path.join(work, 'bare'));
    // An archive made before search existed has no index.
    rmSync(path.join(work, 'bare', 'text.sqlite'));
    const renderer = path.join(work, 'renderer');
    mkdirSync(renderer);
    writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Harvest</title>');
    web = await startWebHost({ dataDir: path.join(work, 'data'), rendererDir: renderer });
    one = await value<JobSummary>('archives.open', { archiveDir: path.join(work, 'one') });
    two = await value<JobSummary>('archives.open', { archiveDir: path.join(work, 'two') });
    bare = await value<JobSummary>('archives.open', { archiveDir: path.join(work, 'bare') });
  });

  after(async () => {
    await web?.close();
    for (const s of servers) s.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('finds pages ranked, with capture dates, marked snippets and where the viewer shows them', async () => {
    const r = await value<SearchReply>('archives.search', { ids: [one.id], query: '"quillfeather manuscript"' });
    assert.equal(r.total, 2);
    assert.deepEqual(r.hits.map((h) => h.url), [`${originOne}/many.html`, `${originOne}/once.html`]);
    const [best] = r.hits;
    assert.equal(best!.title, 'Many');
    assert.equal(best!.jobId, one.id);
    assert.match(best!.capturedAt ?? '', /^\d{4}-\d\d-\d\dT/);
    assert.ok(best!.score >= r.hits[1]!.score);
    assert.ok(best!.snippet.some((p) => p.mark && /quillfeather/i.test(p.text)));
    assert.ok(best!.snippet.some((p) => !p.mark));
    // The mirror path the viewer opens is the page's own.
    const pages = await value<Paged<PageRow>>('archives.pages', { id: one.id, search: 'many' });
    assert.equal(best!.localPath, pages.rows[0]!.localPath);
    assert.deepEqual(r.terms, [{ text: 'quillfeather manuscript', prefix: false }]);
  });

  it('keeps page text as text in snippets, folds accents and names prefixes for highlighting', async () => {
    const r = await value<SearchReply>('archives.search', { ids: [one.id], query: 'cafe postcard* NOT ledger' });
    assert.deepEqual(r.hits.map((h) => h.url), [`${originOne}/cafe.html`]);
    assert.match(r.hits[0]!.snippet.map((p) => p.text).join(''), /café sells postcards & quillfeather/);
    assert.deepEqual(r.terms, [{ text: 'cafe', prefix: false }, { text: 'postcard', prefix: true }]);
  });

  it('pages through the hits', async () => {
    const first = await value<SearchReply>('archives.search', { ids: [one.id], query: 'quillfeather', limit: 2 });
    const second = await value<SearchReply>('archives.search', { ids: [one.id], query: 'quillfeather', limit: 2, offset: 2 });
    assert.equal(first.total, 3);
    assert.equal(first.hits.length, 2);
    assert.equal(second.hits.length, 1);
    assert.equal(new Set([...first.hits, ...second.hits].map((h) => h.url)).size, 3);
  });

  it('searches several archives at once and names those without an index', async () => {
    const r = await value<SearchReply>('archives.search', { ids: [two.id, one.id, bare.id], query: 'quillfeather', limit: 3, offset: 1 });
    assert.equal(r.total, 4);
    assert.equal(r.hits.length, 3);
    const all = await value<SearchReply>('archives.search', { ids: [two.id, one.id, bare.id], query: 'quillfeather' });
    assert.deepEqual(new Set(all.hits.map((h) => h.jobId)), new Set([one.id, two.id]));
    assert.deepEqual(all.hits.slice(1, 4).map((h) => h.url), r.hits.map((h) => h.url), 'the second page of the merged order');
    for (let i = 1; i < all.hits.length; i++) assert.ok(all.hits[i - 1]!.score >= all.hits[i]!.score);
    assert.deepEqual(all.unindexed, [{ jobId: bare.id, name: bare.job.name }]);
  });

  it('refuses a query the language cannot run, saying why', async () => {
    const r = await api('archives.search', { ids: [one.id], query: '"reading room' });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.error.code === 'invalid-query');
    assert.match(!r.ok ? r.error.message : '', /unmatched quote/);
    const not = await api('archives.search', { ids: [one.id], query: 'NOT ledger' });
    assert.match(!not.ok ? not.error.message : '', /NOT needs a word or phrase before it/);
    assert.equal((await api('archives.search', { ids: [], query: 'x' })).ok, false);
    assert.equal((await api('archives.search', { ids: ['no-such-job'], query: 'x' })).ok, false);
  });

  it("gives the QA report, whose figures are harvest stats' own", async () => {
    const report = await value<QaReport>('archives.report', { id: one.id });
    const stats = JSON.parse((await runHarvest(['stats', path.join(work, 'one'), '--json'])).stdout) as QaReport['stats'];
    assert.deepEqual(report.stats.counts, stats.counts);
    assert.deepEqual(report.stats.byState, stats.byState);
    assert.equal(report.stats.name, stats.name);
    assert.ok(report.byMimeType.some((m) => m.mimeType === 'text/html' && m.count === 4));
    assert.equal(report.checksums.warcFiles.length, 1);
    assert.match(report.checksums.warcFiles[0]!.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(report.search, { indexed: true, urls: 4, texts: 4 });
    const list = await value<ArchiveSummary[]>('archives.list', {});
    assert.equal(list.find((a) => a.jobId === one.id)?.hasThumbnails, false);
  });
});
