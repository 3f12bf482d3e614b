/**
 * `harvest cdx` lists captures in pywb's CDX server order: by `urlkey timestamp` (SURT: hosts
 * reversed, an origin's http and https together, query arguments sorted), and with pywb's `sort`:
 * reverse, or the nearest to a `closest` timestamp first.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WARCRecord, WARCSerializer } from 'warcio';
import { runHarvest } from '../helpers/harvestCli.js';

const CAPTURES: [string, string][] = [
  ['https://a.example.test/Z', '2023-05-01T10:00:00Z'],
  ['http://sub.a.example.test/', '2023-05-01T10:00:00Z'],
  ['http://a.example.test/x?b=2&a=1', '2023-05-01T10:00:00Z'],
  ['http://a.example.test/a', '2023-05-03T10:00:00Z'],
  ['http://a.example.test/a', '2023-05-01T10:00:00Z'],
  ['http://a.example.test/a', '2023-05-09T10:00:00Z'],
  ['http://b.example.test/', '2023-05-01T10:00:00Z'],
];

interface Line {
  urlkey: string;
  timestamp: string;
  url: string;
}

describe('harvest cdx: SURT order and sort', { timeout: 120_000 }, () => {
  let work: string;
  let archive: string;

  const cdx = async (...args: string[]): Promise<Line[]> => {
    const r = await runHarvest(['cdx', archive, ...args, '--json']);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-cdx-order-'));
    // A file per date: each is a capture of its own, so one URL has three.
    const inputs: string[] = [];
    for (const day of new Set(CAPTURES.map(([, date]) => date))) {
      const records = CAPTURES.filter(([, date]) => date === day).map(([url, date]) =>
        WARCRecord.create({ url, date, type: 'response', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/plain' }, warcVersion: 'WARC/1.1' }, [
          Buffer.from(`${url} at ${date}`),
        ]),
      );
      const input = path.join(work, `crawl-${inputs.length}.warc.gz`);
      writeFileSync(input, Buffer.concat(await Promise.all(records.map(async (r) => Buffer.from(await WARCSerializer.serialize(r, { gzip: true }))))));
      inputs.push(input);
    }
    archive = path.join(work, 'archive');
    const r = await runHarvest(['import', ...inputs, '--out', archive, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('lists a domain by urlkey then timestamp, as pywb does', async () => {
    const lines = await cdx('example.test', '--match', 'domain');
    assert.deepEqual(
      lines.map((l) => `${l.urlkey} ${l.timestamp}`),
      [
        'test,example,a)/a 20230501100000',
        'test,example,a)/a 20230503100000',
        'test,example,a)/a 20230509100000',
        'test,example,a)/x?a=1&b=2 20230501100000',
        'test,example,a)/z 20230501100000',
        'test,example,a,sub)/ 20230501100000',
        'test,example,b)/ 20230501100000',
      ],
    );
  });

  it('reverses the order with --sort reverse, so --limit keeps the last', async () => {
    const all = await cdx('example.test', '--match', 'domain');
    assert.deepEqual(await cdx('example.test', '--match', 'domain', '--sort', 'reverse'), [...all].reverse());
    assert.deepEqual(
      (await cdx('http://a.example.test/a', '--sort', 'reverse', '--limit', '1')).map((l) => l.timestamp),
      ['20230509100000'],
    );
  });

  it('puts the capture nearest to --closest first with --sort closest', async () => {
    const near = await cdx('http://a.example.test/a', '--sort', 'closest', '--closest', '20230504');
    assert.deepEqual(near.map((l) => l.timestamp), ['20230503100000', '20230501100000', '20230509100000']);
    const r = await runHarvest(['cdx', archive, 'example.test', '--match', 'domain', '--sort', 'closest', '--closest', '2023']);
    assert.notEqual(r.status, 0, 'closest is for an exact query');
  });
});
