/**
 * `harvest import` of a WARC another tool wrote (warcio.js): HTTP/1.0 answers, a chunked body, a
 * windows-1252 page, a revisit, a redirect, a 404 and a record cut off at the end. What could be
 * read is catalogued, saved, rewritten and indexed; the cut record is reported and skipped; the
 * records are kept byte for byte.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { UrlRecord } from '../../shared/crawl.js';
import { startWebHost } from '../../electron/host/webHost.js';
import { runHarvest } from '../helpers/harvestCli.js';

const ORIGIN = 'http://archive.example.test';
const DATE = '2024-03-05T10:20:30Z';

const html = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

function response(url: string, statusline: string, headers: Record<string, string>, body: Buffer | string): WARCRecord {
  return WARCRecord.create({ url: `${ORIGIN}${url}`, date: DATE, type: 'response', statusline, httpHeaders: headers, warcVersion: 'WARC/1.1' }, [
    typeof body === 'string' ? Buffer.from(body) : body,
  ]);
}

const chunked = (...parts: string[]) => parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n';

const serialize = async (r: WARCRecord) => Buffer.from(await WARCSerializer.serialize(r, { gzip: true }));

describe('harvest import: a warcio.js WARC', { timeout: 120_000 }, () => {
  let work: string;
  let input: string;
  let archive: string;
  let members: Buffer[];
  let stderr: string;
  let records: Map<string, UrlRecord>;

  const latin = Buffer.concat([Buffer.from('<!doctype html><html><head><title>Caf'), Buffer.from([0xe9]), Buffer.from(' page</title></head><body><p>Na'), Buffer.from([0xef]), Buffer.from('vet'), Buffer.from([0xe9]), Buffer.from(' of the reading room</p></body></html>')]);

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-warcio-'));
    const latinRecord = await serialize(response('/latin.html', 'HTTP/1.0 200 OK', { 'Content-Type': 'text/html; charset=windows-1252' }, latin));
    const latinDigest = /WARC-Payload-Digest: (\S+)/.exec(gunzipSync(latinRecord).toString('latin1'))![1]!;
    const revisit = WARCRecord.create(
      {
        url: `${ORIGIN}/copy.html`,
        date: DATE,
        type: 'revisit',
        statusline: 'HTTP/1.0 200 OK',
        httpHeaders: { 'Content-Type': 'text/html; charset=windows-1252' },
        warcVersion: 'WARC/1.1',
        refersToUrl: `${ORIGIN}/latin.html`,
        refersToDate: DATE,
        warcHeaders: { 'WARC-Payload-Digest': latinDigest, 'WARC-Profile': 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest' },
      },
      [],
    );
    members = [
      await serialize(WARCRecord.createWARCInfo({ filename: 'other.warc.gz', warcVersion: 'WARC/1.1' }, { software: 'warcio.js' })),
      await serialize(
        response(
          '/',
          'HTTP/1.0 200 OK',
          { 'Content-Type': 'text/html; charset=utf-8' },
          html('Home of the archive', '<a href="/latin.html">latin</a> <a href="/chunked.html">chunked</a> <a href="/copy.html">copy</a> <a href="/old.html">old</a> <a href="/gone.html">gone</a> <img src="/img.png">'),
        ),
      ),
      latinRecord,
      await serialize(response('/chunked.html', 'HTTP/1.1 200 OK', { 'Content-Type': 'text/html', 'Transfer-Encoding': 'chunked' }, chunked('<html><title>Chunks</title>', '<p>a chunkedword here</p>'))),
      await serialize(response('/img.png', 'HTTP/1.0 200 OK', { 'Content-Type': 'image/png' }, Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]))),
      await serialize(revisit),
      await serialize(response('/old.html', 'HTTP/1.0 301 Moved Permanently', { Location: '/', 'Content-Type': 'text/html' }, 'moved')),
      await serialize(response('/gone.html', 'HTTP/1.0 404 Not Found', { 'Content-Type': 'text/html' }, 'not here')),
    ];
    const cut = (await serialize(response('/late.html', 'HTTP/1.0 200 OK', { 'Content-Type': 'text/html' }, html('Late', 'never read')))).subarray(0, 60);
    input = path.join(work, 'other.warc.gz');
    writeFileSync(input, Buffer.concat([...members, cut]));
    archive = path.join(work, 'archive');
    const r = await runHarvest(['import', input, '--out', archive, '--name', 'From warcio']);
    assert.equal(r.status, 0, r.stderr);
    stderr = r.stderr;
    const list = await runHarvest(['list', archive, '--json']);
    records = new Map(list.stdout.trim().split('\n').map((l) => JSON.parse(l) as UrlRecord).map((u) => [u.url, u]));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('reports the record cut off at the end with its file and offset, and imports the rest', () => {
    const offset = members.reduce((n, m) => n + m.length, 0);
    assert.match(stderr, new RegExp(`skipped: ${input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at byte ${offset}: a truncated`));
    assert.equal(records.has(`${ORIGIN}/late.html`), false);
  });

  it('catalogues each answer with its state from the record', () => {
    const state = (p: string) => records.get(`${ORIGIN}${p}`)?.state;
    assert.deepEqual(
      ['/', '/latin.html', '/chunked.html', '/img.png', '/copy.html', '/old.html', '/gone.html'].map(state),
      ['archived', 'archived', 'archived', 'archived', 'archived', 'redirect', 'http-error'],
    );
    assert.equal(records.get(`${ORIGIN}/gone.html`)?.httpStatus, 404);
  });

  it('saves the offline copy: charset decoded, chunks removed, the revisit from its original, links rewritten', () => {
    const mirror = (p: string) => readFileSync(path.join(archive, 'mirror', records.get(`${ORIGIN}${p}`)!.localPath!), 'utf8');
    assert.match(mirror('/latin.html'), /Naïveté of the reading room/);
    assert.match(mirror('/copy.html'), /Naïveté of the reading room/, 'the revisit has its original payload');
    assert.match(mirror('/chunked.html'), /<p>a chunkedword here<\/p>/);
    assert.doesNotMatch(mirror('/chunked.html'), /\r\n/, 'no chunk framing left (the page has no CRLF of its own)');
    const home = mirror('/');
    assert.match(home, /href="latin\.html"/);
    assert.match(home, /<a href="index\.html">old<\/a>/, 'a redirect points where its chain ends');
    assert.match(home, new RegExp(`href="${ORIGIN}/gone.html"`), 'a 404 stays absolute');
  });

  it('indexes the text for search, windows-1252 included', async () => {
    const r = await runHarvest(['search', archive, 'naivete', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const hits = (JSON.parse(r.stdout) as { hits: { url: string }[] }).hits.map((h) => h.url);
    assert.ok(hits.includes(`${ORIGIN}/latin.html`), JSON.stringify(hits));
    const chunked = JSON.parse((await runHarvest(['search', archive, 'chunkedword', '--json'])).stdout) as { total: number };
    assert.equal(chunked.total, 1);
  });

  it("keeps the records byte for byte: the archive's WARC file is the input without its cut tail", () => {
    const files = readdirSync(path.join(archive, 'warc'));
    assert.equal(files.length, 1);
    assert.deepEqual(readFileSync(path.join(archive, 'warc', files[0]!)), Buffer.concat(members));
  });

  it('imports its own WACZ export again: the revisit resolved, the same answers and pages', async () => {
    const wacz = path.join(work, 'archive.wacz');
    const e = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(e.status, 0, e.stderr);
    const again = path.join(work, 'again');
    const r = await runHarvest(['import', wacz, '--out', again, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    const list = await runHarvest(['list', again, '--json']);
    const states = new Map(list.stdout.trim().split('\n').map((l) => JSON.parse(l) as UrlRecord).map((u) => [u.url, u.state]));
    assert.deepEqual(states, new Map([...records].map(([url, u]) => [url, u.state])));
    const copy = readFileSync(path.join(again, 'mirror', records.get(`${ORIGIN}/copy.html`)!.localPath!), 'utf8');
    assert.match(copy, /Naïveté of the reading room/);
  });

  it("lists captures with harvest cdx: pywb's fields, each pointing at the record that holds its payload", async () => {
    const r = await runHarvest(['cdx', archive, `${ORIGIN}/`, '--match', 'prefix', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    assert.deepEqual(
      lines.map((l) => [l.url, l.status, l.timestamp]),
      ['/', '/chunked.html', '/copy.html', '/gone.html', '/img.png', '/latin.html', '/old.html'].map((p) => [`${ORIGIN}${p}`, p === '/gone.html' ? '404' : p === '/old.html' ? '301' : '200', '20240305102030']),
    );
    const file = readFileSync(path.join(archive, 'warc', lines[0]!.filename!));
    for (const l of lines) {
      assert.deepEqual(Object.keys(l), ['urlkey', 'timestamp', 'url', 'mime', 'status', 'digest', 'length', 'offset', 'filename']);
      const head = gunzipSync(file.subarray(Number(l.offset), Number(l.offset) + Number(l.length))).toString('latin1');
      // A revisit's payload is its original's response record.
      const holder = l.url === `${ORIGIN}/copy.html` ? `${ORIGIN}/latin.html` : l.url;
      assert.match(head, new RegExp(`^WARC/1\\.1\r\n[^]*WARC-Target-URI: ${holder}\r\n[^]*WARC-Type: response`), l.url);
    }
    assert.equal(lines.find((l) => l.url === `${ORIGIN}/img.png`)?.mime, 'image/png');
    assert.equal(lines[0]!.urlkey, 'test,example,archive)/');
    const exact = await runHarvest(['cdx', archive, `${ORIGIN}/latin.html`]);
    assert.match(exact.stdout, /^test,example,archive\)\/latin\.html 20240305102030 \{"url":/);
    assert.equal(exact.stdout.trim().split('\n').length, 1);
    assert.equal((await runHarvest(['cdx', archive, 'example.test', '--match', 'domain'])).stdout.trim().split('\n').length, 7);
    assert.equal((await runHarvest(['cdx', archive, 'example.test', '--match', 'host'])).stdout, '');
    assert.equal((await runHarvest(['cdx', archive, `${ORIGIN}/`, '--match', 'prefix', '--to', '2023'])).stdout, '');
  });

  it('answers the CDX server API on harvest serve, behind the token', async () => {
    const web = await startWebHost({ dataDir: path.join(work, 'data') });
    try {
      const job = web.engine.jobs.importArchive(archive);
      const get = (query: string, base = web.url) => fetch(`${base}cdx/${job.id}?${query}`);
      const r = await get(`url=${encodeURIComponent(`${ORIGIN}/`)}&matchType=prefix&output=json&limit=3`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /ndjson/);
      const lines = (await r.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
      const cli = (await runHarvest(['cdx', archive, `${ORIGIN}/`, '--match', 'prefix', '--json', '--limit', '3'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown);
      assert.deepEqual(lines, cli);
      const star = await (await get(`url=${encodeURIComponent(`${ORIGIN}/l*`)}`)).text();
      assert.match(star, /^test,example,archive\)\/latin\.html 20240305102030 \{/);
      assert.equal((await get('matchType=exact')).status, 400);
      assert.equal((await get(`url=x&from=20x`)).status, 400);
      assert.equal((await fetch(`${web.url}cdx/no-such-job?url=x`)).status, 404);
      const tokenless = await fetch(web.url.replace(/\/t\/[^/]+\/$/, `/t/wrong/cdx/${job.id}?url=x`));
      assert.doesNotMatch(await tokenless.text(), /latin/);
    } finally {
      await web.close();
    }
  });
});
