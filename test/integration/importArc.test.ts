/**
 * `harvest import` of an ARC file (gzipped, a member per record, as the Wayback Machine's older
 * crawls wrote them): its HTTP answers catalogued, saved and rewritten as a WARC's would be, and
 * kept in the archive as WARC records.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { UrlRecord } from '../../shared/crawl.js';
import { runHarvest } from '../helpers/harvestCli.js';

const arc = (url: string, date: string, body: string) => {
  const bytes = Buffer.from(body, 'latin1');
  return gzipSync(Buffer.concat([Buffer.from(`${url} 192.0.2.7 ${date} text/html ${bytes.length}\n`, 'latin1'), bytes, Buffer.from('\n')]));
};
const http = (type: string, body: string, extra = '') => `HTTP/1.0 200 OK\r\nContent-Type: ${type}\r\n${extra}\r\n${body}`;

describe('harvest import: an ARC file', { timeout: 120_000 }, () => {
  let work: string;
  let archive: string;
  let records: Map<string, UrlRecord>;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-arc-'));
    const head = '1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n';
    const input = path.join(work, 'old-crawl.arc.gz');
    writeFileSync(
      input,
      Buffer.concat([
        gzipSync(Buffer.from(`filedesc://old-crawl.arc 0.0.0.0 20050614070144 text/plain ${head.length}\n${head}\n`)),
        arc('http://old.example.test/', '20050614070159', http('text/html', '<html><title>Old home</title><a href="http://old.example.test/about.html">about</a></html>')),
        arc('http://old.example.test/about.html', '20050614070205', http('text/html', '<html><title>About us</title><p>founded in 1902</p></html>')),
      ]),
    );
    archive = path.join(work, 'archive');
    const r = await runHarvest(['import', input, '--out', archive, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    const list = await runHarvest(['list', archive, '--json']);
    records = new Map(list.stdout.trim().split('\n').map((l) => JSON.parse(l) as UrlRecord).map((u) => [u.url, u]));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('catalogues and saves its pages, links rewritten', () => {
    assert.equal(records.get('http://old.example.test/')?.state, 'archived');
    assert.equal(records.get('http://old.example.test/about.html')?.state, 'archived');
    const home = readFileSync(path.join(archive, 'mirror', records.get('http://old.example.test/')!.localPath!), 'utf8');
    assert.match(home, /href="about\.html"/);
  });

  it('keeps its records as WARC records, dated from the ARC header lines', () => {
    const dir = path.join(archive, 'warc');
    const text = readdirSync(dir).map((f) => gunzipSync(readFileSync(path.join(dir, f))).toString('latin1')).join('');
    assert.equal(text.match(/^WARC-Type: response\r$/gm)?.length, 2);
    assert.match(text, /WARC-Target-URI: http:\/\/old\.example\.test\/about\.html\r\nWARC-Date: 2005-06-14T07:02:05Z/);
  });

  it('finds its text with harvest search', async () => {
    const r = await runHarvest(['search', archive, 'founded', '--json']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { hits: { url: string }[] }).hits.map((h) => h.url), ['http://old.example.test/about.html']);
  });
});
