/**
 * `harvest import` of a rendered crawl's WARC (a cluster worker's, a `--render` crawl's, or
 * Browsertrix's naming): each page's `urn:thumbnail:`, `urn:textFinal:` and `urn:pageinfo:` records
 * become its crawl render, so `harvest qa` compares the copy with what the crawl's browser showed and
 * asks the site nothing (here the site is gone: its port has no server).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { QaPageResult } from '../../shared/qa.js';
import { readCrawlRender } from '../../electron/engine/render/crawlRender.js';
import { localPathFor } from '../../electron/engine/url/localPath.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { solidPng } from '../helpers/jsSite.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const CHROMIUM = '/usr/bin/chromium';
const DATE = '2026-11-20T10:00:00Z';
const BLUE: [number, number, number] = [20, 90, 200];

const serialize = async (r: WARCRecord) => Buffer.from(await WARCSerializer.serialize(r, { gzip: true }));
const resource = (uri: string, contentType: string, body: Buffer | string) =>
  serialize(WARCRecord.create({ url: uri, date: DATE, type: 'resource', warcHeaders: { 'Content-Type': contentType }, warcVersion: 'WARC/1.1' }, [typeof body === 'string' ? Buffer.from(body) : body]));
const page = (url: string, body: string) =>
  serialize(WARCRecord.create({ url, date: DATE, type: 'response', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/html' }, warcVersion: 'WARC/1.1' }, [Buffer.from(body)]));

describe('harvest import: a rendered crawl\'s renders become the analysis\'s reference', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 300_000 }, () => {
  let work: string;
  let archive: string;
  let origin: string;
  let pages: QaPageResult[];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-import-renders-'));
    archive = path.join(work, 'archive');
    // A port nothing listens on any more: a live reference would fail to load.
    const gone = createServer();
    origin = await listenOnLoopback(gone);
    await new Promise((r) => gone.close(r));
    const blue = `<!doctype html><html><head><title>Blue</title></head><body style="margin:0;background:rgb(${BLUE.join(',')});height:100vh"><a href="/plain">on</a></body></html>`;
    const plain = '<!doctype html><html><head><title>Plain</title></head><body><p>Plain words of the reading room.</p></body></html>';
    const input = path.join(work, 'rendered.warc.gz');
    writeFileSync(
      input,
      Buffer.concat([
        await page(`${origin}/`, blue),
        await resource(`urn:thumbnail:${origin}/`, 'image/png', solidPng(320, 200, BLUE)),
        await resource(`urn:textFinal:${origin}/`, 'text/plain', 'Blue on'),
        // Harvest's own pageinfo: a script fetched /api/items.json, which the offline copy (no scripts) never asks for.
        await resource(`urn:pageinfo:${origin}/`, 'application/json', JSON.stringify({ url: `${origin}/`, urls: { [`${origin}/api/items.json`]: { type: 'fetch', ok: true } } })),
        await page(`${origin}/plain`, plain),
        await resource(`urn:thumbnail:${origin}/plain`, 'image/png', solidPng(320, 200, [255, 255, 255])),
        // Browsertrix's: a status in place of ok, and the text as its browser saw it, which differs from the copy's.
        await resource(`urn:pageinfo:${origin}/plain`, 'application/json', JSON.stringify({ pageid: 'p1', url: `${origin}/plain`, urls: { [`${origin}/plain.css`]: { status: 200, mime: 'text/css', type: 'stylesheet' }, [`${origin}/lost.png`]: { status: 404, type: 'image' } } })),
        await resource(`urn:textFinal:${origin}/plain`, 'text/plain', 'Other words entirely, shown by a script.'),
      ]),
    );
    const imported = await runHarvest(['import', input, '--out', archive, '--quiet']);
    assert.equal(imported.status, 0, imported.stderr);
    const qa = await runHarvest(['qa', archive, '--json', '--quiet', '--copies', 'mirror', '--browser-path', CHROMIUM], { timeoutMs: 240_000 });
    assert.equal(qa.status, 0, qa.stderr);
    pages = (JSON.parse(qa.stdout) as { pages: QaPageResult[] }).pages;
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  it('keeps each page\'s thumbnail, text and requests as its crawl render in the import\'s capture', () => {
    const render = readCrawlRender(archive, localPathFor(`${origin}/`, 'text/html'), 1);
    assert.ok(render !== null, 'the home page has a crawl render');
    assert.equal(render.record.text, 'Blue on');
    assert.deepEqual(render.record.requests, [{ url: `${origin}/api/items.json`, type: 'fetch', ok: true }]);
    const browsertrix = readCrawlRender(archive, localPathFor(`${origin}/plain`, 'text/html'), 1);
    assert.deepEqual(browsertrix?.record.requests, [
      { url: `${origin}/plain.css`, type: 'stylesheet', ok: true },
      { url: `${origin}/lost.png`, type: 'image', ok: false },
    ]);
  });

  it('analyses every page against its crawl render, without the live site', () => {
    const byUrl = new Map(pages.map((p) => [p.url, p]));
    const home = byUrl.get(`${origin}/`);
    const plain = byUrl.get(`${origin}/plain`);
    assert.ok(home && plain, `both pages analysed: ${[...byUrl.keys()].join(', ')}`);
    assert.equal(home.reference, 'crawl-render');
    assert.equal(home.error, null);
    assert.equal(home.textMatch, 1, 'the copy shows the text the render kept');
    assert.ok((home.screenshotMatch ?? 0) >= 0.9, `the copy looks like the imported thumbnail: ${home.screenshotMatch}`);
    assert.deepEqual(home.missing.map((m) => m.url), [], 'what only a script fetched is not missing from a copy that runs none');
    assert.equal(plain.reference, 'crawl-render');
    assert.ok((plain.textMatch ?? 1) < 0.5, `the copy's words are not the render's: ${plain.textMatch}`);
    assert.deepEqual(plain.missing.map((m) => m.url), [`${origin}/plain.css`], 'the stylesheet the crawl loaded is missing; the 404 was never loaded');
  });
});
