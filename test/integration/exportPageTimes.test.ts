import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { extractZip } from '../helpers/zipReadBack.js';

/** How much later than their records the old crawls dated pages (1-3 s were seen). */
const LATE_MS = 2000;

const fourteen = (iso: string) => new Date(iso).toISOString().replace(/[-:T]|\.\d+Z$/g, '');

/**
 * An archive crawled before pages were dated by their request's start keeps, in its catalogue, page
 * times up to a few seconds after the page's WARC record. Its WACZ must still date each page by its
 * own record, so a replay tool finds that capture (not the next) and `verify --deep` passes.
 */
describe('a WACZ of an archive whose catalogue dates pages after their records', () => {
  let work: string;
  let site: Server;
  let archive: string;
  /** Each page's true time, `<capture> <url>` → 14 digits, read before the catalogue is aged. */
  const recordTimes = new Map<string, string>();

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-page-times-'));
    let version = 1;
    const pages: Record<string, () => string> = {
      '/': () => '<title>Home</title><a href="/a.html">a</a> <a href="/b.html">b</a>',
      '/a.html': () => `<title>A</title><p>Alpha ${version}</p>`,
      '/b.html': () => '<title>B</title><p>Bravo</p>',
    };
    site = createServer((req, res) => {
      const page = pages[req.url ?? ''];
      if (!page) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(page());
    });
    const origin = await listenOnLoopback(site);
    archive = path.join(work, 'archive');
    assert.equal((await runHarvest(['crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0'])).status, 0);
    version = 2;
    // WARC-Date has whole seconds: the captures must not share one.
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await runHarvest(['recrawl', archive, '--quiet'])).status, 0);
    site.close();

    // Aged as the old crawls wrote it: every capture's time 2 s after its record's.
    const db = new Database(path.join(archive, 'catalogue.sqlite'));
    try {
      const rows = db.prepare('SELECT c.url_id AS id, c.capture_id AS capture, c.fetched_at AS at, u.url FROM url_captures c JOIN urls u ON u.id = c.url_id').all() as {
        id: number;
        capture: number;
        at: string;
        url: string;
      }[];
      const age = db.prepare('UPDATE url_captures SET fetched_at = ? WHERE url_id = ? AND capture_id = ?');
      for (const r of rows) {
        recordTimes.set(`${r.capture} ${r.url}`, fourteen(r.at));
        age.run(new Date(Date.parse(r.at) + LATE_MS).toISOString(), r.id, r.capture);
      }
    } finally {
      db.close();
    }
  });

  after(() => {
    site?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('dates each page of every capture by its own record, and the package verifies', async () => {
    for (const [name, extra] of [['all', []], ['c1', ['--capture', '1']], ['c2', ['--capture', '2']]] as const) {
      const wacz = path.join(work, `${name}.wacz`);
      const run = await runHarvest(['export', archive, '--format', 'wacz', '--out', wacz, '--quiet', ...extra]);
      assert.equal(run.status, 0, run.stderr);
      const dir = path.join(work, name);
      await extractZip(wacz, dir);
      const pages = readFileSync(path.join(dir, 'pages', 'pages.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .slice(1)
        .map((l) => JSON.parse(l) as { url: string; ts: string });
      assert.equal(pages.length, name === 'all' ? 6 : 3, `${name}: pages listed`);
      const captures = name === 'all' ? [1, 2] : [Number(name.slice(1))];
      const urls = [...new Set(pages.map((p) => p.url))];
      assert.deepEqual(
        pages.map((p) => `${fourteen(p.ts)} ${p.url}`).sort(),
        captures.flatMap((n) => urls.map((url) => `${recordTimes.get(`${n} ${url}`)} ${url}`)).sort(),
        `${name}: each page of each capture dated as its own record`,
      );
      const pkg = JSON.parse(readFileSync(path.join(dir, 'datapackage.json'), 'utf8')) as { mainPageUrl: string; mainPageDate: string };
      assert.equal(fourteen(pkg.mainPageDate), recordTimes.get(`${captures.at(-1)} ${pkg.mainPageUrl}`), `${name}: the main page's date is its record's`);
      const verify = await runHarvest(['verify', wacz, '--deep']);
      assert.equal(verify.status, 0, `${name}: ${verify.stdout}${verify.stderr}`);
    }
  });
});
