/**
 * Bodies far larger than a page: a gzip bomb under the size limit is archived whole (the WARC
 * keeps it as it came, compressed, the mirror holds it decoded), one over the limit is stopped
 * there and recorded as too large, and a page too large to parse is saved as it came.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { UrlRecord } from '../../shared/crawl.js';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { readRaw, type RawRecord } from '../helpers/warcReadBack.js';

const MB = 1024 * 1024;
const LIMIT = 30 * MB;
/** A page of 20 MB decoded, some 20 KB on the wire: past the parser's 8 MiB, under the limit. */
const BOMB = Buffer.concat([Buffer.from('<!doctype html><title>Bomb</title><a href="/never.html">x</a>'), Buffer.alloc(20 * MB)]);
const BOMB_WIRE = gzipSync(BOMB, { level: 9 });
/** 40 MB decoded: over the limit. */
const OVER_WIRE = gzipSync(Buffer.alloc(40 * MB), { level: 9 });

describe('large and compressed bodies', () => {
  let work: string;
  let server: Server;
  let origin: string;
  let archive: string;
  let records: Map<string, UrlRecord>;
  let responses: RawRecord[];
  const requests: string[] = [];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-large-bodies-'));
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      const gzip = (wire: Buffer) => res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip', 'Content-Length': wire.length }).end(wire);
      if (req.url === '/') return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Home</title><a href="/bomb">b</a> <a href="/over">o</a>');
      if (req.url === '/bomb') return gzip(BOMB_WIRE);
      if (req.url === '/over') return gzip(OVER_WIRE);
      res.writeHead(404).end();
    });
    origin = await listenOnLoopback(server);
    archive = path.join(work, 'archive');
    const run = await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0', '--max-response-bytes', String(LIMIT)]);
    assert.equal(run.status, 0, run.stderr);
    records = new Map(listRecords(archive).map((r) => [r.url, r]));
    const warcDir = path.join(archive, 'warc');
    responses = [];
    for (const f of readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz'))) {
      responses.push(...(await readRaw(path.join(warcDir, f))).filter((r) => r.type === 'response'));
    }
  });

  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const record = (p: string): UrlRecord => {
    const r = records.get(`${origin}${p}`);
    assert.ok(r, `no record for ${p}`);
    return r;
  };
  const response = (p: string): RawRecord | undefined => responses.find((r) => r.header('WARC-Target-URI') === `${origin}${p}`);

  it('archives a bomb under the limit: its page saved decoded, as it came, its link not followed', () => {
    const r = record('/bomb');
    assert.equal(r.state, 'archived');
    assert.equal(r.bytes, BOMB.length);
    const saved = path.join(archive, 'mirror', r.localPath!);
    assert.equal(statSync(saved).size, BOMB.length);
    assert.ok(readFileSync(saved).equals(BOMB), 'the copy is the page decoded, byte for byte');
    assert.ok(!requests.includes('/never.html'), 'a page too large to parse gives no links');
  });

  it("keeps the bomb in the WARC as sent: compressed, with its Content-Encoding", () => {
    const rec = response('/bomb');
    assert.ok(rec, 'a response record for /bomb');
    const headEnd = rec.block.indexOf('\r\n\r\n');
    const head = rec.block.subarray(0, headEnd).toString('latin1');
    assert.match(head, /^Content-Encoding: gzip$/im);
    assert.ok(rec.block.subarray(headEnd + 4).equals(BOMB_WIRE), 'the payload is the bytes on the wire');
  });

  it('stops a bomb over the limit at the limit, and says why', () => {
    const r = record('/over');
    assert.equal(r.state, 'failed');
    assert.equal(r.error, `too-large: decoded body exceeds the ${LIMIT}-byte limit (${OVER_WIRE.length} bytes as gzip); decoding stopped there`);
    assert.equal(r.localPath, null);
    assert.equal(requests.filter((u) => u === '/over').length, 1, 'not retried');
  });
});
