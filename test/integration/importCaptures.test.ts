/**
 * `harvest import` of two crawls of one site (two WARC files, given newest first, one of them
 * plain): one capture per crawl in date order, the later one's outcomes against the earlier
 * (unchanged, changed, new, removed), and the exports give each capture its own file.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { CaptureSummary, ChangeReport } from '../../shared/captures.js';
import { startWebHost } from '../../electron/host/webHost.js';
import { runHarvest } from '../helpers/harvestCli.js';

const ORIGIN = 'http://crawls.example.test';
const page = (title: string, text: string) => `<!doctype html><html><head><title>${title}</title></head><body><a href="/a.html">a</a> <p>${text}</p></body></html>`;

async function warc(date: string, pages: Record<string, string>, gzip: boolean): Promise<Buffer> {
  const records = [WARCRecord.createWARCInfo({ date, filename: 'crawl.warc', warcVersion: 'WARC/1.0' }, { software: 'warcio.js', isPartOf: `crawl of ${date}` })];
  for (const [p, body] of Object.entries(pages)) {
    records.push(WARCRecord.create({ url: `${ORIGIN}${p}`, date, type: 'response', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/html' }, warcVersion: 'WARC/1.0' }, [Buffer.from(body)]));
  }
  return Buffer.concat(await Promise.all(records.map(async (r) => Buffer.from(await WARCSerializer.serialize(r, { gzip })))));
}

describe('harvest import: two crawls become two captures', { timeout: 120_000 }, () => {
  let work: string;
  let archive: string;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-captures-'));
    const older = path.join(work, 'older.warc.gz');
    const newer = path.join(work, 'newer.warc');
    writeFileSync(older, await warc('2023-01-10T08:00:00Z', { '/': page('Home', 'first words'), '/a.html': page('A', 'stays the same'), '/b.html': page('B', 'soon gone') }, true));
    writeFileSync(newer, await warc('2024-06-20T08:00:00Z', { '/': page('Home', 'other words now'), '/a.html': page('A', 'stays the same'), '/c.html': page('C', 'brand new') }, false));
    archive = path.join(work, 'archive');
    const r = await runHarvest(['import', newer, older, '--out', archive, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('makes one capture per crawl, oldest first, started at its first record', async () => {
    const captures = JSON.parse((await runHarvest(['captures', archive, '--json'])).stdout) as CaptureSummary[];
    assert.deepEqual(
      captures.map((c) => [c.id, c.startedAt, c.state]),
      [
        [1, '2023-01-10T08:00:00.000Z', 'finished'],
        [2, '2024-06-20T08:00:00.000Z', 'finished'],
      ],
    );
  });

  it("compares the later crawl with the earlier, as a re-crawl's capture", async () => {
    const changes = JSON.parse((await runHarvest(['changes', archive, '--json'])).stdout) as ChangeReport;
    assert.equal(changes.capture, 2);
    assert.deepEqual(changes.changed, [`${ORIGIN}/`]);
    assert.deepEqual(changes.new, [`${ORIGIN}/c.html`]);
    assert.deepEqual(changes.removed, [`${ORIGIN}/b.html`]);
    assert.equal(changes.counts.unchanged, 1);
  });

  it('gives each capture its own WARC file, so an export of one capture carries its records', async () => {
    assert.equal(readdirSync(path.join(archive, 'warc')).length, 2);
    const out = path.join(work, 'first.warc.gz');
    const e = await runHarvest(['export', archive, '--format', 'warc', '--capture', '1', '--out', out, '--quiet']);
    assert.equal(e.status, 0, e.stderr);
    const cdx = await runHarvest(['cdx', archive, `${ORIGIN}/`, '--json']);
    assert.deepEqual(
      cdx.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { timestamp: string }).timestamp),
      ['20230110080000', '20240620080000'],
    );
    const search = JSON.parse((await runHarvest(['search', archive, 'brand', '--json'])).stdout) as { hits: { capture: { id: number } }[] };
    assert.deepEqual(search.hits.map((h) => h.capture.id), [2]);
  });

  it('serves Memento on harvest serve: a TimeMap of both captures, a TimeGate, raw mementos', async () => {
    const web = await startWebHost({ dataDir: path.join(work, 'data') });
    try {
      const job = web.engine.jobs.importArchive(archive);
      const memento = (ts: string) => `${web.url}memento/${job.id}/${ts}id_/${ORIGIN}/`;
      const map = await fetch(`${web.url}timemap/${job.id}/${ORIGIN}/`);
      assert.equal(map.status, 200);
      assert.equal(map.headers.get('content-type'), 'application/link-format');
      const text = await map.text();
      assert.match(text, new RegExp(`<${memento('20230110080000')}>; rel="first memento"; datetime="Tue, 10 Jan 2023 08:00:00 GMT"`));
      assert.match(text, new RegExp(`<${memento('20240620080000')}>; rel="last memento"; datetime="Thu, 20 Jun 2024 08:00:00 GMT"`));
      const gate = (accept?: string) => fetch(`${web.url}timegate/${job.id}/${ORIGIN}/`, { redirect: 'manual', ...(accept && { headers: { 'Accept-Datetime': accept } }) });
      const early = await gate('Wed, 01 Mar 2023 00:00:00 GMT');
      assert.equal(early.status, 302);
      assert.equal(early.headers.get('location'), memento('20230110080000'));
      assert.equal((await gate()).headers.get('location'), memento('20240620080000'));
      const raw = await fetch(memento('20230110080000'));
      assert.equal(raw.status, 200);
      assert.equal(await raw.text(), page('Home', 'first words'));
      assert.equal(raw.headers.get('memento-datetime'), 'Tue, 10 Jan 2023 08:00:00 GMT');
      assert.match(raw.headers.get('link') ?? '', /rel="original"/);
      assert.match(raw.headers.get('content-security-policy') ?? '', /sandbox/);
    } finally {
      await web.close();
    }
  });

  it('refuses a missing input or a folder without WARC files before making the archive folder', async () => {
    const out = path.join(work, 'not-made');
    const missing = await runHarvest(['import', path.join(work, 'nope.warc.gz'), '--out', out]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /nope\.warc\.gz: no such file or folder/);
    const empty = await runHarvest(['import', path.join(archive, 'mirror'), '--out', out]);
    assert.equal(empty.status, 2);
    assert.match(empty.stderr, /holds no \.warc, \.warc\.gz, \.arc, \.arc\.gz or \.wacz file/);
    assert.equal(existsSync(out), false);
  });
});
