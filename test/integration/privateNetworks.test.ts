/**
 * Off-site requisites on private and local networks: refused unless a seed names the host or the job
 * allows the network, checked on the address each connection uses (after DNS), and recorded as
 * skipped with their own reason.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listRecords, runHarvest } from '../helpers/harvestCli.js';
import { solidPng } from '../helpers/jsSite.js';

const PNG = solidPng(4, 4, [10, 120, 200]);

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

describe('private and local network addresses', () => {
  let work: string;
  let seed: Server;
  let other: Server;
  let seedPort: number;
  let otherPort: number;
  /** Host headers of every request each server got. */
  const seedHosts: string[] = [];
  const otherHosts: string[] = [];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-private-'));
    other = createServer((req, res) => {
      otherHosts.push(req.headers.host ?? '');
      res.writeHead(200, { 'content-type': req.url === '/robots.txt' ? 'text/plain' : 'image/png' }).end(req.url === '/robots.txt' ? '' : PNG);
    });
    otherPort = await listen(other, '127.0.0.2');
    seed = createServer((req, res) => {
      seedHosts.push(req.headers.host ?? '');
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(
          `<!doctype html><title>Home</title><img src="http://localhost:${seedPort}/named.png"><img src="http://127.0.0.2:${otherPort}/literal.png"><img src="/own.png">`,
        );
      } else if (req.url === '/robots.txt') res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    seedPort = await listen(seed, '127.0.0.1');
  });

  after(async () => {
    seed?.close();
    other?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const states = (archive: string) => new Map(listRecords(archive).map((r) => [new URL(r.url).pathname, r]));

  it('refuses a name that resolves to loopback and a literal private address, without a request, each skipped with the reason', async () => {
    const archive = path.join(work, 'closed');
    const run = await runHarvest(['crawl', `http://127.0.0.1:${seedPort}/`, '--out', archive, '--delay-ms', '0', '--quiet']);
    assert.equal(run.status, 0, run.stderr);
    const byPath = states(archive);
    assert.equal(byPath.get('/own.png')?.state, 'archived', "the seed's own host may be on loopback");
    for (const p of ['/named.png', '/literal.png']) {
      const r = byPath.get(p);
      assert.equal(r?.state, 'skipped', p);
      assert.equal(r?.skipReason, 'address:private', p);
      assert.match(r?.error ?? '', /private or local network address/, p);
    }
    assert.deepEqual(otherHosts, [], 'nothing reached the other address');
    assert.ok(!seedHosts.some((h) => h.startsWith('localhost')), `a request named localhost: ${seedHosts.join(', ')}`);
  });

  it('fetches them when the job allows the network (--allow-network)', async () => {
    const archive = path.join(work, 'open');
    const run = await runHarvest(['crawl', `http://127.0.0.1:${seedPort}/`, '--out', archive, '--delay-ms', '0', '--quiet', '--allow-network', '127.0.0.0/8']);
    assert.equal(run.status, 0, run.stderr);
    const byPath = states(archive);
    for (const p of ['/named.png', '/literal.png', '/own.png']) assert.equal(byPath.get(p)?.state, 'archived', p);
    assert.ok(otherHosts.length > 0);
    // The choice is part of the record: the QA report names the allowed network.
    const report = await runHarvest(['report', archive, '--format', 'md']);
    assert.match(report.stdout, /\| Private networks allowed \| 127\.0\.0\.0\/8 \|/);
  });
});
