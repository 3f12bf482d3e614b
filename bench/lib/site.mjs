// The bench site: generated once per size and origin (cached), served by serve.mjs, counted by /__stats.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sleep } from './measure.mjs';

/** Generates (or reuses) the sitegen.mjs site with `pages` pages for `origin` under `sitesDir`. */
export function ensureSite(benchDir, sitesDir, pages, port, log) {
  const dir = path.join(sitesDir, `site-${pages}-${port}`);
  // Written after sitegen succeeds, so a generation cut short is redone.
  const done = path.join(dir, '.complete');
  if (!fs.existsSync(done)) {
    log(`generating the ${pages}-page site in ${dir}`);
    // sitegen.mjs spreads every page's depth into Math.max, past V8's default stack at 100,000 pages.
    const r = spawnSync(process.execPath, ['--stack-size=4000', path.join(benchDir, 'sitegen.mjs'), '--pages', String(pages), '--out', dir, '--origin', `http://127.0.0.1:${port}`, '--force'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`sitegen.mjs failed for ${pages} pages`);
    fs.writeFileSync(done, new Date().toISOString());
  }
  const manifestFile = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  return { dir, pages, manifestFile, pageCount: manifest.pages.length, assetCount: manifest.assets.length };
}

/** Every page and asset of a manifest as request paths, escaped as they go on the wire. */
export function manifestPaths(manifestFile, origin) {
  const { pages, assets } = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  return [...pages, ...assets].map((x) => {
    const u = new URL(x.url, origin);
    return u.pathname + u.search;
  });
}

/** serve.mjs on 127.0.0.1:port for one scenario; stats reset before each measured run. */
export class BenchServer {
  constructor(benchDir, site, port, { latencyMs = 0, compress = true, logFile }) {
    this.origin = `http://127.0.0.1:${port}`;
    this.site = site;
    this.latencyMs = latencyMs;
    const args = [path.join(benchDir, 'serve.mjs'), '--dir', site.dir, '--port', String(port), '--latency-ms', String(latencyMs), '--quiet'];
    if (compress) args.push('--compress');
    this.child = spawn(process.execPath, args, { stdio: ['ignore', fs.openSync(logFile, 'a'), fs.openSync(logFile, 'a')] });
  }

  async ready() {
    for (let i = 0; i < 200; i++) {
      if (this.child.exitCode !== null) throw new Error(`serve.mjs exited with ${this.child.exitCode}`);
      let dir;
      try {
        dir = (await this.stats()).config?.dir;
      } catch {
        await sleep(100);
        continue;
      }
      // On a shared machine the port may belong to someone else's server: never measure against it.
      if (path.resolve(dir ?? '') !== path.resolve(this.site.dir)) throw new Error(`port ${this.origin} is taken by another server (serving ${dir}); pick another with --port`);
      return this;
    }
    throw new Error('serve.mjs did not start');
  }

  /**
   * Fetches every page and asset of the manifest once per Accept-Encoding, unmeasured. serve.mjs
   * reads each file and compresses each body once, then answers from memory: without this the first
   * crawler of a scenario pays the server's cold-cache CPU (4.5 s on the 5,000-page site) on the
   * same two cores, and every later one does not.
   */
  async warm(acceptEncodings) {
    const paths = manifestPaths(this.site.manifestFile, this.origin);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const get = (p, enc) =>
      new Promise((resolve) => {
        const req = http.get(`${this.origin}${p}`, { agent, headers: enc ? { 'accept-encoding': enc } : {} }, (res) => {
          res.resume();
          res.on('end', resolve);
          res.on('error', resolve);
        });
        req.on('error', resolve);
      });
    const started = Date.now();
    for (const enc of acceptEncodings) {
      let next = 0;
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (next < paths.length) await get(paths[next++], enc);
        }),
      );
    }
    agent.destroy();
    return { urls: paths.length, acceptEncodings, seconds: Math.round((Date.now() - started) / 100) / 10 };
  }

  stats(detail = false) {
    return this.request(`/__stats${detail ? '?detail=1' : ''}`, 'GET');
  }

  reset() {
    return this.request('/__stats/reset', 'POST');
  }

  /** A kept-alive connection the server closes as idle can fail the next request: that one is retried. */
  async request(pathname, method) {
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await fetch(`${this.origin}${pathname}`, { method });
        if (!r.ok) throw new Error(`${pathname} answered ${r.status}`);
        return await r.json();
      } catch (e) {
        if (attempt >= 3 || this.child.exitCode !== null) throw e;
        await sleep(100);
      }
    }
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** The /__stats counters a results table needs (per-URL detail dropped). */
export function serverCounters(s) {
  return {
    requests: s.requests,
    html200: s.html200,
    html200NonTrap: s.html200NonTrap,
    uniqueUrls: s.uniqueUrls,
    duplicateRequests: s.duplicateRequests,
    duplicateResourceFetches: s.duplicateResourceFetches,
    siteDoneSeconds: s.lastNewSiteResourceMs ? Math.round(s.lastNewSiteResourceMs / 100) / 10 : null,
    connections: s.connections,
    robotsTxt: s.robotsTxt,
    disallowedRequests: s.disallowedRequests,
    byStatus: s.byStatus,
    traps: Object.fromEntries(Object.entries(s.traps ?? {}).map(([k, v]) => [k, v.requests])),
    topDuplicates: (s.topDuplicates ?? []).slice(0, 5),
  };
}
