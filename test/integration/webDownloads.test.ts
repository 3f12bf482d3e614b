/**
 * The browser host offers every export as a download, a BagIt bag (a folder) as a ZIP of it, and
 * the archive's QA report as an HTML file, and the job's URL log as a text file.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../shared/contract.js';
import type { ExportStatus, JobSummary } from '../../shared/appViews.js';
import { EXPORTERS } from '../../electron/engine/export/exporters.js';
import { startWebHost, type WebHost } from '../../electron/host/webHost.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { extractZip } from '../helpers/zipReadBack.js';

describe('downloads from the browser host', () => {
  let work: string;
  let site: Server;
  let web: WebHost;
  let job: JobSummary;
  let origin: string;

  const api = async <T>(command: string, body: unknown = {}): Promise<T> => {
    const res = await fetch(`${web.url}api/${command}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const reply = (await res.json()) as Reply<T>;
    if (!reply.ok) throw new Error(`${command}: ${reply.error.message}`);
    return reply.value;
  };
  const until = async <T>(what: () => Promise<T>, done: (v: T) => boolean): Promise<T> => {
    for (let i = 0; i < 600; i++) {
      const v = await what();
      if (done(v)) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('timed out');
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-downloads-'));
    site = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Home</title><a href="/about">about</a>');
      if (req.url === '/about') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>About</title>');
      res.writeHead(404).end();
    });
    origin = await listenOnLoopback(site);
    web = await startWebHost({ dataDir: path.join(work, 'data'), exporters: EXPORTERS, rendererDir: path.join(work, 'renderer') });
    job = await api<JobSummary>('jobs.create', { job: { name: 'Downloads', seeds: [`${origin}/`], politeness: { delayMs: 0 } } });
    await api('jobs.start', { id: job.id });
    await until(() => api<JobSummary[]>('jobs.list'), (l) => l.find((j) => j.id === job.id)?.status === 'finished');
  });

  after(async () => {
    await web?.close();
    site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('offers a BagIt bag as a ZIP of its folder, which holds the whole bag', async () => {
    const started = await api<ExportStatus>('archives.export', { id: job.id, format: 'bagit', outPath: path.join(work, 'bag') });
    const done = await until(() => api<{ exportId: string; downloadPath: string | null }[]>('exports.list', { id: job.id }), (l) => l.some((r) => r.exportId === started.exportId));
    const record = done.find((r) => r.exportId === started.exportId)!;
    assert.ok(record.downloadPath, 'the bag has a download link');
    const res = await fetch(new URL(record.downloadPath, web.url));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="bag\.zip"/);
    const zip = path.join(work, 'bag-download.zip');
    writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    const out = path.join(work, 'unzipped');
    mkdirSync(out);
    const names = (await extractZip(zip, out)).map((e) => e.name);
    assert.ok(names.includes('bag/bagit.txt'), names.join(' '));
    assert.ok(names.includes('bag/manifest-sha512.txt') && names.includes('bag/data/bag.wacz'), names.join(' '));
    assert.equal(readFileSync(path.join(out, 'bag', 'bagit.txt'), 'utf8'), readFileSync(path.join(work, 'bag', 'bagit.txt'), 'utf8'));
  });

  it("offers the archive's QA report as an HTML file", async () => {
    const res = await fetch(new URL(`report/${encodeURIComponent(job.id)}`, web.url));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="qa-report-/);
    assert.match(await res.text(), /Downloads/);
    assert.equal((await fetch(new URL('report/no-such-job', web.url))).status, 404);
  });

  it("offers the job's URL log as a text file, as 'harvest list' prints it", async () => {
    const res = await fetch(new URL(`log/${encodeURIComponent(job.id)}`, web.url));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="url-log-${job.id.replace(/[^\w.-]/g, '_')}.txt"`);
    const lines = (await res.text()).trimEnd().split('\n');
    const byUrl = new Map(lines.map((l) => [l.split('\t')[2], l.split('\t')]));
    assert.deepEqual(byUrl.get(`${origin}/`)?.slice(0, 2), ['archived', '200'], lines.join('\n'));
    assert.deepEqual(byUrl.get(`${origin}/about`)?.slice(0, 2), ['archived', '200'], lines.join('\n'));
    assert.match(byUrl.get(`${origin}/about`)?.[3] ?? '', /about/, 'names the local file');
  });

  it('refuses a log download outside a job, and without the token', async () => {
    const secret = path.join(work, 'data', 'jobs.json');
    for (const p of ['log/..%2F..%2Fjobs.json', 'log/..%2Fdata%2Fjobs.json', 'log/%2E%2E', 'log/no-such-job']) {
      const res = await fetch(new URL(p, web.url));
      assert.equal(res.status, 404, p);
      assert.equal(res.headers.get('content-disposition'), null, p);
      assert.doesNotMatch(await res.text(), /Downloads|seeds/, `${p} shows nothing of ${secret}`);
    }
    const tokenless = await fetch(new URL(`/t/${'x'.repeat(32)}/log/${encodeURIComponent(job.id)}`, web.url));
    assert.equal(tokenless.headers.get('content-disposition'), null);
    assert.doesNotMatch(await tokenless.text(), /archived\t200/);
  });
});
