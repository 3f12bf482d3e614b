// Scenario 8: many sites at once, the design's per-site shards. Ten 200-page sites on ten ports, 50 ms
// per response, Harvest's default 2 connections per host and no added delay, one `--seeds-file` crawl:
// how close to the politeness ceiling (sites × connections / latency) the crawl gets, beside what a
// bare client gets from the same servers on the same cores.
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'undici';
import { ACCEPT_ENCODINGS, harvestCommand, measureHarvest } from './crawlers.mjs';
import { fetchPhase, readEvents } from './events.mjs';
import { round } from './measure.mjs';
import { BenchServer, ensureSite, manifestPaths } from './site.mjs';

const SITES = 10;
const PAGES = 200;
const LATENCY_MS = 50;
const CONNECTIONS = 2;
export const MANY_SITES_AIM = 0.95;

/** The ten servers answer as one for measureRun: stats summed, reset together. */
class ServerGroup {
  constructor(servers) {
    this.servers = servers;
    this.origin = servers[0].origin;
  }

  async reset() {
    await Promise.all(this.servers.map((s) => s.reset()));
  }

  async stats() {
    const all = await Promise.all(this.servers.map((s) => s.stats()));
    const sum = (k) => all.reduce((a, s) => a + (s[k] ?? 0), 0);
    return {
      requests: sum('requests'),
      html200: sum('html200'),
      html200NonTrap: sum('html200NonTrap'),
      uniqueUrls: sum('uniqueUrls'),
      duplicateRequests: sum('duplicateRequests'),
      robotsTxt: sum('robotsTxt'),
      lastNewSiteResourceMs: Math.max(...all.map((s) => s.lastNewSiteResourceMs ?? 0)),
      perSite: all.map((s) => s.requests),
    };
  }
}

/**
 * The same servers' ceiling as this machine delivers it: every manifest URL of every site fetched
 * and read by a bare client (no parsing, archiving or scheduling) with the crawl's connections per
 * host. What it misses of the politeness ceiling is the servers' and the machine's; the rest of
 * Harvest's shortfall is Harvest's.
 */
async function bareClientRate(servers) {
  let requests = 0;
  const t0 = performance.now();
  await Promise.all(
    servers.map(async (s) => {
      const paths = manifestPaths(s.site.manifestFile, s.origin);
      const pool = new Pool(s.origin, { connections: CONNECTIONS });
      let next = 0;
      const connection = async () => {
        while (next < paths.length) {
          const { body } = await pool.request({ path: paths[next++], method: 'GET', headers: { 'accept-encoding': ACCEPT_ENCODINGS.harvest } });
          for await (const _ of body);
          requests++;
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, connection));
      await pool.close();
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { requests, seconds: round(seconds, 1), reqPerSec: round(requests / seconds, 1) };
}

export async function manySitesBench(ctx) {
  const servers = [];
  try {
    for (let i = 0; i < SITES; i++) {
      const port = ctx.port + 100 + i;
      const site = ensureSite(ctx.benchDir, ctx.sitesDir, PAGES, port, ctx.log);
      servers.push(await new BenchServer(ctx.benchDir, site, port, { compress: true, latencyMs: LATENCY_MS, logFile: path.join(ctx.out, `serve-${port}.log`) }).ready());
    }
    ctx.log(`scenario 8: warming ${SITES} servers`);
    await Promise.all(servers.map((s) => s.warm([ACCEPT_ENCODINGS.harvest])));
    ctx.log(`scenario 8: a bare client on the same ${SITES} servers`);
    const bareClient = await bareClientRate(servers);
    const dir = path.join(ctx.out, 'scenario8');
    fs.mkdirSync(dir, { recursive: true });
    const seeds = path.join(dir, 'seeds.txt');
    fs.writeFileSync(seeds, servers.map((s) => `${s.origin}/`).join('\n') + '\n');
    const archive = path.join(dir, 'archive');
    const events = path.join(dir, 'events.jsonl');
    ctx.log(`scenario 8: harvest of ${SITES} sites at once`);
    const group = new ServerGroup(servers);
    const harvest = await measureHarvest(ctx, {
      cmd: harvestCommand(ctx.root, ['crawl', '--seeds-file', seeds, '--out', archive, '--events-jsonl', events], { connections: CONNECTIONS }),
      outDir: dir,
      archive,
      server: group,
      check: false,
    });
    const perSite = (await group.stats()).perSite;
    if (!ctx.keepMirrors) fs.rmSync(archive, { recursive: true, force: true });
    const phase = fetchPhase(readEvents(events));
    const ceiling = (SITES * CONNECTIONS) / (LATENCY_MS / 1000);
    const fetchRate = phase ? harvest.requests / phase.seconds : null;
    return {
      sites: SITES,
      pagesPerSite: PAGES,
      latencyMs: LATENCY_MS,
      connections: CONNECTIONS,
      ceilingReqPerSec: ceiling,
      harvest: { ...harvest, fetchPhaseSeconds: phase ? round(phase.seconds, 1) : null, fetchPhaseRequestsPerSec: fetchRate === null ? null : round(fetchRate, 1) },
      requestsPerSite: perSite,
      bareClient: { ...bareClient, share: round(bareClient.reqPerSec / ceiling, 3) },
      share: fetchRate === null ? null : round(fetchRate / ceiling, 3),
      aim: MANY_SITES_AIM,
      met: fetchRate !== null && fetchRate / ceiling >= MANY_SITES_AIM && harvest.ended === 'finished',
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
