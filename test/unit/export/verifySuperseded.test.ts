import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeCdxj } from '../../../electron/engine/export/cdxj.js';
import { verify } from '../../../electron/engine/export/verify.js';
import { finishedWarcFiles } from '../../../electron/engine/export/warcFiles.js';
import { WarcWriter } from '../../../electron/engine/warc/writer.js';
import { waczPackage, writeZip, type ZipEntrySpec } from '../../helpers/zipFiles.js';
import { exchange, tempDir } from '../warc/fixtures.js';

/**
 * `verify --deep` wants an index line for every record a replay tool looks up, save an error
 * response a later success of its URL supersedes (the WACZ export leaves those out, so replay shows
 * the success): here an image's 404, then its 200 a minute later, and a page's lone 404.
 */
describe('harvest verify --deep and error records a later success supersedes', () => {
  let dir: string;
  let warcName: string;
  let warc: Buffer;
  let lines: string[];
  let n = 0;
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));

  before(async () => {
    dir = tempDir();
    const warcDir = path.join(dir, 'warc');
    const writer = await WarcWriter.open({ dir: warcDir, prefix: 'harvest', software: 'test' });
    const notFound = { status: 404, statusText: 'Not Found', payload: Buffer.from('no') };
    await writer.writeExchange(exchange('http://lib.test/late.png', { ...notFound, date: at(0) }));
    await writer.writeExchange(exchange('http://lib.test/gone.html', { ...notFound, date: at(0) }));
    await writer.writeExchange(exchange('http://lib.test/late.png', { date: at(1), responseHeaders: [['Content-Type', 'image/png']] }));
    await writer.close();
    const warcs = await finishedWarcFiles(warcDir);
    warcName = warcs[0]!.name;
    warc = readFileSync(warcs[0]!.path);
    await writeCdxj(warcs, path.join(dir, 'index.cdxj'), {});
    lines = readFileSync(path.join(dir, 'index.cdxj'), 'utf8').split('\n').filter(Boolean).sort();
    assert.equal(lines.length, 3);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function check(index: string[]): Promise<string[]> {
    const resources: ZipEntrySpec[] = [
      { name: `archive/${warcName}`, data: warc },
      { name: 'indexes/index.cdx', data: Buffer.from(index.map((l) => l + '\n').join('')) },
      { name: 'pages/pages.jsonl', data: Buffer.from(`${JSON.stringify({ format: 'json-pages-1.0' })}\n${JSON.stringify({ url: 'http://lib.test/late.png', ts: at(1).toISOString() })}\n`) },
    ];
    const file = path.join(dir, `t${n++}.wacz`);
    await writeZip(file, [...resources, ...waczPackage(resources)]);
    return (await verify(file, { deep: true })).problems.map((p) => p.detail);
  }
  const without = (url: string, status: string) => lines.filter((l) => !(l.includes(`"url":"${url}"`) && l.includes(`"status":"${status}"`)));

  it('accepts an index without the 404 the later 200 of its URL answers', async () => {
    assert.deepEqual(await check(without('http://lib.test/late.png', '404')), []);
  });

  it('still wants the line of an error nothing answers, and of the success', async () => {
    assert.match((await check(without('http://lib.test/gone.html', '404'))).join('\n'), /gone\.html at offset \d+ has no index line/);
    assert.match((await check(without('http://lib.test/late.png', '200'))).join('\n'), /late\.png at offset \d+ has no index line/);
  });
});
