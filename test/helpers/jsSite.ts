import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/** A solid-colour PNG (8-bit RGB), made here so the test site needs no image files. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const page = (title: string, body: string) =>
  `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<link rel="stylesheet" href="/static/site.css"></head><body>${body}</body></html>`;

/** The listing's script: items from JSON, lazy images, infinite scroll to page 2, a "load more" button. */
const LISTING_JS = `
function addItems(items) {
  const list = document.getElementById('items');
  for (const item of items) {
    const li = document.createElement('li');
    li.className = 'item';
    li.innerHTML = '<img width="60" height="40" alt=""><span></span>';
    li.querySelector('img').src = item.image;
    li.querySelector('span').textContent = item.title;
    list.appendChild(li);
  }
}
fetch('/api/items.json').then((r) => r.json()).then(addItems);
const lazy = new IntersectionObserver((entries) => {
  for (const e of entries) if (e.isIntersecting) { e.target.src = e.target.dataset.src; lazy.unobserve(e.target); }
});
document.querySelectorAll('img.io').forEach((img) => lazy.observe(img));
const more = new IntersectionObserver((entries) => {
  if (!entries.some((e) => e.isIntersecting)) return;
  more.disconnect();
  fetch('/api/items.json?page=2').then((r) => r.json()).then((items) => {
    addItems(items);
    const a = document.createElement('a');
    a.href = '/listing/2';
    a.textContent = 'More items on page 2';
    document.getElementById('pager').appendChild(a);
  });
});
more.observe(document.getElementById('sentinel'));
`;

const PAGES: Record<string, string> = {
  '/': page(
    'JS site home',
    `<h1>JS site</h1><nav id="nav"></nav><p><a href="/listing">Listing</a> <a href="/go">Go</a> <a href="/outside">Outside</a></p>
<script>
for (const [href, text] of [['/js-only/alpha', 'Alpha page'], ['/js-only/beta', 'Beta page']]) {
  const a = document.createElement('a'); a.href = href; a.textContent = text;
  document.getElementById('nav').appendChild(a);
}
</script>`,
  ),
  '/listing': page(
    'Listing',
    `<h1>Listing</h1><ul id="items"></ul>
<div style="height:2400px">spacer</div>
<img class="io" data-src="/img/lazy-io.png" width="120" height="80" alt="observed">
<img loading="lazy" src="/img/lazy-native.png" width="120" height="80" alt="native">
<div id="sentinel" style="height:10px"></div><p id="pager"></p>
<script src="/static/listing.js"></script>`,
  ),
  '/listing/2': page(
    'Listing page 2',
    `<h1>Listing page 2</h1><ul id="items"></ul><button id="more">Load more</button>
<script>
function add(items) {
  for (const item of items) {
    const li = document.createElement('li'); li.className = 'item'; li.textContent = item.title;
    document.getElementById('items').appendChild(li);
  }
}
fetch('/api/items.json?page=2').then((r) => r.json()).then(add);
document.getElementById('more').addEventListener('click', () => fetch('/api/items.json?page=3').then((r) => r.json()).then(add));
</script>`,
  ),
  '/js-only/alpha': page('Alpha', `<h1>Alpha</h1><div id="c"></div><script>document.getElementById('c').textContent = 'Alpha text written by script';</script>`),
  '/js-only/beta': page('Beta', `<h1>Beta</h1><p>Beta page, linked only by script.</p>`),
  '/go': page('Moving', `<p>Redirecting...</p><script>location.replace('/landing');</script>`),
  '/landing': page('Landing', `<h1>Landing</h1><p>Reached only through a client-side redirect.</p>`),
};

const ITEMS: Record<string, { title: string; image: string }[]> = {
  '': [
    { title: 'Item Alpha', image: '/img/item-1.png' },
    { title: 'Item Beta', image: '/img/item-2.png' },
  ],
  '2': [{ title: 'Item Gamma', image: '/img/item-3.png' }],
  '3': [{ title: 'Item Delta', image: '/img/item-1.png' }],
};

const IMAGES: Record<string, Buffer> = {
  '/img/item-1.png': solidPng(60, 40, [200, 30, 30]),
  '/img/item-2.png': solidPng(60, 40, [30, 200, 30]),
  '/img/item-3.png': solidPng(60, 40, [30, 30, 200]),
  '/img/lazy-io.png': solidPng(120, 80, [200, 200, 30]),
  '/img/lazy-native.png': solidPng(120, 80, [30, 200, 200]),
};

export interface JsSite {
  origin: string;
  /** Another origin (127.0.0.2) that one page's script tries to reach: it must never be asked. */
  outsideOrigin: string;
  /** Every request the site got, as `METHOD path?query`, in order. */
  requests: string[];
  outsideRequests: string[];
  close(): Promise<void>;
}

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve) => server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)));
}

/**
 * A site whose content exists only through JavaScript: a listing filled from /api/items.json,
 * links written by scripts, images loaded on scroll (IntersectionObserver and loading=lazy), an
 * infinite-scroll page 2 and a "load more" button, a client-side redirect, and a page whose script
 * reaches for another origin. `beforeServing` runs (and is waited for) before each request is answered.
 */
export async function startJsSite(options: { beforeServing?: (path: string) => Promise<void> } = {}): Promise<JsSite> {
  const requests: string[] = [];
  const outsideRequests: string[] = [];
  const outside = createServer((req, res) => {
    outsideRequests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end('{"tracked":true}');
  });
  const outsideOrigin = await listen(outside, '127.0.0.2');
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    // A test's fault injected at a given request, before it is answered.
    await options.beforeServing?.(req.url ?? '/');
    const url = new URL(req.url ?? '/', 'http://x');
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (url.pathname === '/outside') {
      html(page('Outside', `<h1>Outside</h1><p id="o">waiting</p><script>fetch('${outsideOrigin}/tracker.json').then(() => { document.getElementById('o').textContent = 'reached'; }, () => { document.getElementById('o').textContent = 'blocked'; });</script>`));
    } else if (PAGES[url.pathname] !== undefined) html(PAGES[url.pathname]!);
    else if (url.pathname === '/api/items.json') {
      const items = ITEMS[url.searchParams.get('page') ?? ''] ?? [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(items));
    } else if (url.pathname === '/static/listing.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(LISTING_JS);
    else if (url.pathname === '/static/site.css') res.writeHead(200, { 'content-type': 'text/css' }).end('body { font-family: sans-serif; } .item img { margin-right: 4px; }');
    else if (IMAGES[url.pathname] !== undefined) res.writeHead(200, { 'content-type': 'image/png' }).end(IMAGES[url.pathname]);
    else if (url.pathname === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };
  const server = createServer(serve);
  const origin = await listen(server, '127.0.0.1');
  return {
    origin,
    outsideOrigin,
    requests,
    outsideRequests,
    close: async () => {
      server.closeAllConnections();
      outside.closeAllConnections();
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => outside.close(r))]);
    },
  };
}
