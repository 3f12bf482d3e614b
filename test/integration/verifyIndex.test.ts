import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI } from '../helpers/benchSite.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { waczPackage, writeZip, type ZipEntrySpec } from '../helpers/zipFiles.js';
import { extractZip } from '../helpers/zipReadBack.js';

function verify(file: string, deep: boolean): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, 'verify', file, ...(deep ? ['--deep'] : [])], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf000000030101001c2a1e930000000049454e44ae426082',
  'hex',
);

/**
 * A WACZ exported by Harvest, then damaged one way at a time the way a strict validator (and a replay
 * tool) would notice, its datapackage.json hashes made to match so only the index or pages tell.
 */
describe('harvest verify catches a damaged WACZ index and page list', () => {
  let work: string;
  let site: Server;
  let index: string[];
  let pages: string[];
  let warcs: ZipEntrySpec[];
  let n = 0;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-verify-index-'));
    const files: Record<string, [string, string | Buffer]> = {
      '/': ['text/html', '<title>Home</title><img src="/a.png"><img src="/b.png"><a href="/more.html">more</a>'],
      '/more.html': ['text/html', '<title>More</title><p>More words</p><img src="/a.png">'],
      '/a.png': ['image/png', PNG],
      '/b.png': ['image/png', Buffer.concat([PNG, Buffer.from('b')])],
    };
    site = createServer((req, res) => {
      const f = files[req.url ?? ''];
      if (!f) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': f[0] }).end(f[1]);
    });
    const origin = await listenOnLoopback(site);
    const archive = path.join(work, 'archive');
    assert.equal((await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0'])).status, 0);
    const wacz = path.join(work, 'good.wacz');
    const run = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet']);
    assert.equal(run.status, 0, run.stderr);
    const dir = path.join(work, 'good');
    const names = (await extractZip(wacz, dir)).map((e) => e.name);
    const read = (name: string) => readFileSync(path.join(dir, ...name.split('/')));
    warcs = names.filter((f) => f.startsWith('archive/')).map((name) => ({ name, data: read(name) }));
    index = read('indexes/index.cdx').toString('utf8').split('\n').filter(Boolean);
    pages = read('pages/pages.jsonl').toString('utf8').split('\n').filter(Boolean);
    assert.ok(index.length >= 4 && pages.length === 3, `${index.length} index lines, ${pages.length} page lines`);
  });

  after(() => {
    site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A WACZ of the crawl's WARC files with this index and page list, its datapackage.json to match. */
  async function pack(lines: string[], pageLines: string[], opts: { deflate?: boolean } = {}): Promise<string> {
    const resources: ZipEntrySpec[] = [
      ...warcs.map((w) => ({ ...w, ...(opts.deflate && { compress: true }) })),
      { name: 'indexes/index.cdx', data: Buffer.from(lines.map((l) => l + '\n').join('')) },
      { name: 'pages/pages.jsonl', data: Buffer.from(pageLines.map((l) => l + '\n').join('')) },
    ];
    const file = path.join(work, `t${n++}.wacz`);
    await writeZip(file, [...resources, ...waczPackage(resources)]);
    return file;
  }

  const edit = (line: string, change: (json: Record<string, unknown>) => void): string => {
    const at = line.indexOf(' {');
    const json = JSON.parse(line.slice(at + 1)) as Record<string, unknown>;
    change(json);
    return `${line.slice(0, at)} ${JSON.stringify(json)}`;
  };
  const isImage = (l: string) => l.includes('"mime":"image/png"');

  it('passes the WACZ as exported, with and without --deep', async () => {
    const file = await pack(index, pages);
    for (const deep of [false, true]) assert.equal(verify(file, deep).status, 0, verify(file, deep).out);
  });

  // Each corruption: the index and pages, and whether the plain check (no record read) sees it.
  const corruptions: { name: string; make: () => [string[], string[], { deflate?: boolean }?]; plain: boolean; says: RegExp }[] = [
    {
      name: 'a CDXJ offset shifted',
      make: () => [index.map((l, i) => (i === 0 ? edit(l, (j) => (j['offset'] = String(Number(j['offset']) + 7))) : l)), pages],
      plain: false,
      says: /no record starts|has no index line/,
    },
    { name: 'lines unsorted', make: () => [[...index].reverse(), pages], plain: true, says: /out of order/ },
    { name: 'a line removed', make: () => [index.filter((l) => !isImage(l) || !l.includes('/b.png')), pages], plain: false, says: /b\.png at offset \d+ has no index line/ },
    {
      name: 'a wrong URL on a line',
      make: () => [index.map((l) => (l.includes('/more.html') ? edit(l, (j) => (j['url'] = String(j['url']).replace('more', 'mode'))) : l)), pages],
      plain: true,
      says: /is not the SURT of its URL/,
    },
    { name: 'a resource stored deflated', make: () => [index, pages, { deflate: true }], plain: true, says: /stored deflated/ },
    { name: 'images left out of the index', make: () => [index.filter((l) => !isImage(l)), pages], plain: false, says: /response record of .*\.png .* has no index line/ },
    { name: 'no pages', make: () => [index, pages.slice(0, 1)], plain: true, says: /lists no pages/ },
    {
      name: 'a page that is not archived',
      make: () => [index, [...pages, JSON.stringify({ url: 'http://elsewhere.test/', ts: '2026-01-01T00:00:00Z' })]],
      plain: true,
      says: /page http:\/\/elsewhere\.test\/ is not archived/,
    },
    {
      name: 'page timestamps matching no record',
      make: () => [index, pages.map((l, i) => (i === 0 ? l : l.replace(/"ts":"(\d{4})/, (_, y: string) => `"ts":"${Number(y) + 1}`)))],
      plain: true,
      says: /matches no record of that URL/,
    },
  ];

  for (const c of corruptions) {
    it(`${c.name}: exit 1 with --deep${c.plain ? ' and without' : ''}`, async () => {
      const [lines, pageLines, opts] = c.make();
      const file = await pack(lines, pageLines, opts);
      const deep = verify(file, true);
      assert.equal(deep.status, 1, deep.out);
      assert.match(deep.out, c.says);
      const plain = verify(file, false);
      assert.equal(plain.status, c.plain ? 1 : 0, plain.out);
    });
  }
});
