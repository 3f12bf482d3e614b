import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { QaPageResult } from '../../shared/qa.js';
import { runHarvest } from '../helpers/harvestCli.js';
import { startJsSite, type JsSite } from '../helpers/jsSite.js';
import { readRaw } from '../helpers/warcReadBack.js';

const CHROMIUM = '/usr/bin/chromium';

async function qa(archive: string, ...args: string[]): Promise<{ status: number | null; pages: QaPageResult[]; stderr: string }> {
  const run = await runHarvest(['qa', archive, '--json', '--quiet', '--browser-path', CHROMIUM, ...args], { timeoutMs: 400_000 });
  const pages = run.stdout.trim() === '' ? [] : (JSON.parse(run.stdout) as { pages: QaPageResult[] }).pages;
  return { status: run.status, pages, stderr: run.stderr };
}

describe('QA analysis: the crawl-time render as the reference', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`, timeout: 900_000 }, () => {
  let work: string;
  let js: JsSite;

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-qa-render-'));
    js = await startJsSite();
  });

  after(async () => {
    await js?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("compares a rendered crawl's copies with what the crawl rendered, asking nothing of the live site", async () => {
    const archive = path.join(work, 'rendered');
    const crawl = await runHarvest(['crawl', `${js.origin}/`, '--out', archive, '--render', '--browser-path', CHROMIUM, '--delay-ms', '0', '--quiet'], { timeoutMs: 400_000 });
    assert.equal(crawl.status, 0, crawl.stderr);
    // The render's text and requests are in the WARC as Browsertrix names them, beside the thumbnail.
    const warcDir = path.join(archive, 'warc');
    const records = (await Promise.all(readdirSync(warcDir).map((f) => readRaw(path.join(warcDir, f))))).flat();
    const uris = new Set(records.filter((r) => r.type === 'resource').map((r) => r.header('WARC-Target-URI')));
    assert.ok(uris.has(`urn:textFinal:${js.origin}/listing`) && uris.has(`urn:pageinfo:${js.origin}/listing`), [...uris].join(' '));
    const asked = js.requests.length;
    const { status, pages, stderr } = await qa(archive);
    assert.equal(status, 0, stderr);
    assert.deepEqual(js.requests.slice(asked), [], 'the live site was asked nothing during the analysis');
    assert.ok(pages.length >= 3, JSON.stringify(pages.map((p) => p.url)));
    for (const p of pages) assert.equal(p.reference, 'crawl-render', p.url);
    // The script-built listing, lowest of a static crawl, scores high on the offline copy of a rendered one.
    const listing = pages.find((p) => p.url === `${js.origin}/listing`);
    assert.ok(listing?.copies.mirror, JSON.stringify(pages.map((p) => p.url)));
    assert.ok(listing.copies.mirror.textMatch! >= 0.95, `listing text ${listing.copies.mirror.textMatch}`);
    assert.ok(listing.copies.mirror.screenshotMatch! >= 0.9, `listing screenshot ${listing.copies.mirror.screenshotMatch}`);
    assert.deepEqual(listing.copies.mirror.missing, []);
    const kept = JSON.parse(readFileSync(path.join(archive, 'thumbnails', new URL(js.origin).host.replace(':', '_'), 'listing.html.render.json'), 'utf8')) as { requests: { url: string }[] };
    assert.ok(kept.requests.some((r) => r.url.endsWith('/api/items.json')), 'the render kept the data request among its requests');
  });
});
