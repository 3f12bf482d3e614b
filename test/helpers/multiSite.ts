import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it: which site, which path, from which source address, when. */
export interface Served {
  site: string;
  path: string;
  from: string;
  startMs: number;
  endMs: number;
}

export interface MultiSite {
  /** Each site's origin, http://127.0.0.<n>:<port>, its own loopback address. */
  origins: string[];
  served: Served[];
  /** Extra latency for requests from one source address (a slow worker). */
  slowFor: Map<string, number>;
  /** How many more times a site's robots.txt answers 503 (by origin). */
  robotsFailures: Map<string, number>;
  /** Requests per URL (origin + path), robots.txt included. */
  requestsPerUrl(since?: number): Map<string, number>;
  /** Pairs of overlapping requests to one site from different source addresses (started at `since` or later). */
  sharedSites(since?: number): { site: string; a: Served; b: Served }[];
  /** The most requests one site was answering at once, among requests started in [from, to). */
  peakConcurrency(from: number, to: number): number;
  stop(): Promise<void>;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/**
 * Several sites, each on its own 127.0.0.x address, every answer after `latencyMs`. Each site has
 * `pages` HTML pages in a tree (each links its children, its parent, the home page and another site's
 * home page), one stylesheet, one image per ten pages, a redirect, a 404, and a robots.txt that
 * keeps out /private/ (which the home page links).
 */
export async function startMultiSite(opts: { sites: number; pages: number; latencyMs: number; firstAddress?: number }): Promise<MultiSite> {
  const served: Served[] = [];
  const slowFor = new Map<string, number>();
  const robotsFailures = new Map<string, number>();
  const servers: Server[] = [];
  const origins: string[] = [];
  const first = opts.firstAddress ?? 40;
  for (let i = 0; i < opts.sites; i++) {
    const address = `127.0.0.${first + i}`;
    const server = createServer((req, res) => answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, address, () => resolve());
    });
    servers.push(server);
    origins.push(`http://${address}:${(server.address() as AddressInfo).port}`);
  }
  const page = (site: number, n: number): string => {
    const kids = [2 * n + 1, 2 * n + 2].filter((k) => k < opts.pages);
    const links = [
      ...kids.map((k) => `<a href="/p/${k}.html">page ${k}</a>`),
      n > 0 ? `<a href="/p/${Math.floor((n - 1) / 2)}.html">up</a>` : '',
      `<a href="/">home</a>`,
      `<a href="${origins[(site + 1) % origins.length]}/">next site</a>`,
      n % 10 === 0 ? `<img src="/img/${n}.png">` : '',
      n === 0 ? '<a href="/private/secret.html">private</a> <a href="/old">old</a> <a href="/missing.html">missing</a>' : '',
    ];
    return `<!doctype html><html><head><title>Site ${site} page ${n}</title><link rel="stylesheet" href="/style.css"></head><body><h1>Site ${site}, page ${n}</h1>${links.join(' ')}</body></html>`;
  };
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const startMs = Date.now();
    const local = `${req.socket.localAddress}:${req.socket.localPort}`;
    const siteIndex = origins.findIndex((o) => o.endsWith(`//${local}`));
    const site = origins[siteIndex]!;
    const path = req.url ?? '/';
    const from = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '';
    const delay = opts.latencyMs + (slowFor.get(from) ?? 0);
    // Recorded when the answer ends or its client goes away (a killed worker), so every request counts.
    res.once('close', () => served.push({ site, path, from, startMs, endMs: Date.now() }));
    setTimeout(() => {
      const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
        res.end(body);
      };
      const m = /^\/p\/(\d+)\.html$/.exec(path);
      if (path === '/') send(200, 'text/html; charset=utf-8', page(siteIndex, 0));
      else if (m && Number(m[1]) < opts.pages) send(200, 'text/html; charset=utf-8', page(siteIndex, Number(m[1])));
      else if (path === '/robots.txt' && (robotsFailures.get(site) ?? 0) > 0) {
        robotsFailures.set(site, robotsFailures.get(site)! - 1);
        send(503, 'text/plain', 'try again later');
      } else if (path === '/robots.txt') send(200, 'text/plain', 'User-agent: *\nDisallow: /private/\n');
      else if (path === '/style.css') send(200, 'text/css', 'body { background: url(/img/0.png) }');
      else if (/^\/img\/\d+\.png$/.test(path)) send(200, 'image/png', PNG);
      else if (path === '/old') send(301, 'text/html', '', { location: '/p/1.html' });
      else send(404, 'text/html', 'not here');
    }, delay);
  };
  return {
    origins,
    served,
    slowFor,
    robotsFailures,
    requestsPerUrl(since = 0) {
      const counts = new Map<string, number>();
      for (const s of served) if (s.startMs >= since) counts.set(s.site + s.path, (counts.get(s.site + s.path) ?? 0) + 1);
      return counts;
    },
    sharedSites(since = 0) {
      const out: { site: string; a: Served; b: Served }[] = [];
      const bySite = new Map<string, Served[]>();
      for (const s of served) if (s.startMs >= since) bySite.set(s.site, [...(bySite.get(s.site) ?? []), s]);
      for (const [site, list] of bySite) {
        const sorted = [...list].sort((x, y) => x.startMs - y.startMs);
        for (let i = 0; i < sorted.length; i++) {
          for (let j = i + 1; j < sorted.length && sorted[j]!.startMs < sorted[i]!.endMs; j++) {
            if (sorted[j]!.from !== sorted[i]!.from) out.push({ site, a: sorted[i]!, b: sorted[j]! });
          }
        }
      }
      return out;
    },
    peakConcurrency(from, to) {
      const bySite = new Map<string, [number, number][]>();
      for (const s of served) {
        if (s.startMs >= from && s.startMs < to) bySite.set(s.site, [...(bySite.get(s.site) ?? []), [s.startMs, 1], [s.endMs, -1]]);
      }
      let peak = 0;
      for (const events of bySite.values()) {
        let open = 0;
        // An end before a start at the same millisecond: back-to-back requests do not overlap.
        for (const [, d] of events.sort((a, b) => a[0] - b[0] || a[1] - b[1])) peak = Math.max(peak, (open += d));
      }
      return peak;
    },
    async stop() {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
