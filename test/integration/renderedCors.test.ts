import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const CHROMIUM = '/usr/bin/chromium';

/** Data on another origin: one answer readable cross-origin (CORS), one not. */
function startDataSite(): Server {
  return createServer((req, res) => {
    if (req.url === '/secret.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"value":"SECRET-7319"}');
    else if (req.url === '/open.json') res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end('{"value":"OPEN-2204"}');
    else res.writeHead(404).end();
  });
}

/**
 * The home page loads both data files (as images, which need no CORS), so they are archived before
 * /reader, linked from it, renders; /reader's script then reads them cross-origin and shows what it got.
 */
function startPageSite(data: string): Server {
  const reader = (name: string) =>
    `fetch('${data}/${name}.json').then((r) => r.json()).then((j) => { document.getElementById('${name}').textContent = 'read ' + j.value; },` +
    ` () => { document.getElementById('${name}').textContent = 'refused'; });`;
  return createServer((req, res) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`);
    if (req.url === '/') html(`<img src="${data}/secret.json" alt=""><img src="${data}/open.json" alt=""><a href="/reader">reader</a>`);
    else if (req.url === '/reader') html(`<p id="secret">waiting</p><p id="open">waiting</p><script>${reader('secret')}${reader('open')}</script>`);
    else res.writeHead(404).end();
  });
}

describe('rendered capture keeps the same-origin policy', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed` }, () => {
  const servers: Server[] = [];
  let tmp: string;
  let dataOrigin: string;
  let pageOrigin: string;

  before(async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'harvest-cors-'));
    const data = startDataSite();
    servers.push(data);
    dataOrigin = await listenOnLoopback(data);
    const pages = startPageSite(dataOrigin);
    servers.push(pages);
    pageOrigin = await listenOnLoopback(pages);
  });

  after(async () => {
    for (const s of servers) await new Promise((resolve) => s.close(resolve));
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('answers archived responses with their own headers: a cross-origin read fails unless they allowed it', async () => {
    const out = path.join(tmp, 'archive');
    const run = await runHarvest(['crawl', `${pageOrigin}/`, '--out', out, '--quiet', '--render', '--browser-path', CHROMIUM], { timeoutMs: 120_000 });
    assert.equal(run.status, 0, run.stderr);
    const records = listRecords(out);
    const state = (url: string) => records.find((r) => r.url === url)?.state;
    // The reads below were answered from the archive, not fetched for the page.
    assert.equal(state(`${dataOrigin}/secret.json`), 'archived');
    assert.equal(state(`${dataOrigin}/open.json`), 'archived');
    const reader = records.find((r) => r.url === `${pageOrigin}/reader`);
    assert.ok(reader?.localPath, 'the reader page was saved');
    const saved = readFileSync(path.join(out, 'mirror', reader.localPath), 'utf8');
    assert.match(saved, /<p id="open">read OPEN-2204<\/p>/, 'a response that allowed cross-origin reads is readable');
    assert.match(saved, /<p id="secret">refused<\/p>/, 'a response that did not allow them is not');
  });
});
