/**
 * A job's request settings reach the site and the record: Accept-Language (a site that negotiates
 * languages is captured in the chosen one), the contact and User-Agent suffix, extra headers,
 * cookies from a cookies.txt and basic authentication; the credentials go to no other host and stay
 * out of the WARC files.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { HARVEST_VERSION } from '../../shared/job.js';
import { listRecords, runHarvest, type HarvestRun } from '../helpers/harvestCli.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { readRaw, type RawRecord } from '../helpers/warcReadBack.js';

const PASSWORD = 'correct horse battery';
const SESSION = 'cookie-value-4f9e';

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

describe('request settings', () => {
  let work: string;
  let site: Server;
  let cdn: Server;
  let origin: string;
  let cdnOrigin: string;
  const seen: Seen[] = [];
  const cdnSeen: Seen[] = [];
  let run: HarvestRun;
  let archive: string;
  let records: RawRecord[] = [];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-request-'));
    cdn = createServer((req, res) => {
      cdnSeen.push({ path: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('89504e470d0a1a0a', 'hex'));
    });
    cdnOrigin = (await listenOnLoopback(cdn)).replace('127.0.0.1', 'localhost');
    site = createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      const html = (body: string, lang: string) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', vary: 'Accept-Language', 'content-language': lang }).end(body);
      const french = /^fr\b/.test(req.headers['accept-language'] ?? '');
      if (req.url === '/') {
        const links = `<a href="/staff/">staff</a><a href="/members">members</a><img src="${cdnOrigin}/logo.png">`;
        return french ? html(`<html lang="fr"><p>Bonjour</p>${links}</html>`, 'fr') : html(`<html lang="en"><p>Hello</p>${links}</html>`, 'en');
      }
      if (req.url === '/staff/') {
        const expected = `Basic ${Buffer.from(`staff:${PASSWORD}`).toString('base64')}`;
        if (req.headers.authorization !== expected) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="staff"' }).end();
        return html('<p>Staff only</p>', 'en');
      }
      if (req.url === '/members') {
        if (req.headers.cookie !== `session=${SESSION}`) return void res.writeHead(403).end();
        return html('<p>Members only</p>', 'en');
      }
      res.writeHead(404).end();
    });
    origin = await listenOnLoopback(site);
    const host = new URL(origin).hostname;
    const cookies = path.join(work, 'cookies.txt');
    writeFileSync(cookies, `# Netscape HTTP Cookie File\n${host}\tFALSE\t/\tFALSE\t0\tsession\t${SESSION}\n`);
    archive = path.join(work, 'archive');
    run = await runHarvest(
      [
        'crawl', `${origin}/`, '--out', archive, '--quiet', '--delay-ms', '0',
        '--accept-language', 'fr, en;q=0.5',
        '--contact', 'archive@library.example',
        '--user-agent-suffix', 'Web-Collection/2',
        '--header', 'X-Collection: theses',
        '--cookies', cookies,
        '--auth-user', 'staff',
        // The image host is another name for loopback, which only a seed's host may be without this.
        '--allow-network', '127.0.0.0/8',
      ],
      { env: { HARVEST_AUTH_PASSWORD: PASSWORD } },
    );
    const warcDir = path.join(archive, 'warc');
    for (const f of readdirSync(warcDir)) records.push(...(await readRaw(path.join(warcDir, f))));
  });

  after(() => {
    site?.close();
    cdn?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('captures a site that negotiates languages in the chosen one, and every request says which', () => {
    assert.equal(run.status, 0, run.stderr);
    const home = listRecords(archive).find((r) => r.url === `${origin}/`)!;
    const copy = readFileSync(path.join(archive, 'mirror', home.localPath!), 'utf8');
    assert.match(copy, /Bonjour/);
    assert.ok(seen.length >= 4);
    for (const s of [...seen, ...cdnSeen]) assert.equal(s.headers['accept-language'], 'fr, en;q=0.5', s.path);
    const requests = records.filter((r) => r.type === 'request');
    assert.ok(requests.length >= 4);
    for (const r of requests) assert.match(r.block.toString('latin1'), /\r\nAccept-Language: fr, en;q=0\.5\r\n/, r.header('WARC-Target-URI')!);
  });

  it('sends the contact, the User-Agent suffix and the extra header', () => {
    for (const s of seen) {
      assert.equal(s.headers['user-agent'], `Harvest/${HARVEST_VERSION} (web archiving; +mailto:archive@library.example) Web-Collection/2`);
      assert.equal(s.headers.from, 'archive@library.example');
      assert.equal(s.headers['x-collection'], 'theses');
    }
  });

  it('gets into the sections that need a cookie or basic authentication, and sends neither to another host', () => {
    const states = new Map(listRecords(archive).map((r) => [new URL(r.url).pathname, r.state]));
    assert.equal(states.get('/staff/'), 'archived');
    assert.equal(states.get('/members'), 'archived');
    assert.ok(cdnSeen.length >= 1, 'the offsite image was fetched');
    for (const s of cdnSeen) {
      assert.equal(s.headers.authorization, undefined);
      assert.equal(s.headers.cookie, undefined);
    }
  });

  it('keeps the credentials out of the WARC files: the request records say a credential went, not which', () => {
    const staff = records.find((r) => r.type === 'request' && r.header('WARC-Target-URI') === `${origin}/staff/`)!;
    assert.match(staff.block.toString('latin1'), /\r\nAuthorization: Basic \(withheld\)\r\n/);
    assert.match(staff.block.toString('latin1'), /\r\nCookie: session=\(withheld\)\r\n/);
    const encoded = Buffer.from(`staff:${PASSWORD}`).toString('base64');
    for (const f of readdirSync(path.join(archive, 'warc'))) {
      const text = gunzipSync(readFileSync(path.join(archive, 'warc', f))).toString('latin1');
      for (const secret of [PASSWORD, encoded, SESSION]) assert.ok(!text.includes(secret), `${f} holds ${secret}`);
    }
  });
});
