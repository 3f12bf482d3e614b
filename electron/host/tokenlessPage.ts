import type { ServerResponse } from 'node:http';

/**
 * What `harvest serve` answers at any address without its secret token (someone typed
 * http://127.0.0.1:<port>/ from memory, or kept an old tab): a page saying where the app is,
 * instead of a bare "not found". It names no token, so it gives nothing away.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
<title>Harvest: use the address harvest serve printed</title>
<style>
:root { --bg: #f7f7f5; --panel: #fff; --text: #1d1f21; --muted: #6b6f76; --border: #d9dadc; --accent: #2f6f4f; }
@media (prefers-color-scheme: dark) { :root { --bg: #17191b; --panel: #1f2225; --text: #e6e6e3; --muted: #9aa0a6; --border: #34383c; --accent: #5fae86; } }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--text);
  font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; }
main { max-width: 34em; background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: 24px 28px; }
h1 { font-size: 18px; margin: 0 0 8px; } .brand { color: var(--accent); font-weight: 700; }
code { background: var(--bg); border: 1px solid var(--border); border-radius: 4px; padding: 1px 5px; }
p.muted { color: var(--muted); font-size: 13px; }
</style></head>
<body><main>
<h1><span class="brand">Harvest</span> is running here, at another address</h1>
<p>Open the full address that <code>harvest serve</code> printed in its terminal, the one that looks like
<code>http://127.0.0.1:&lt;port&gt;/t/&lt;secret&gt;/</code>.</p>
<p class="muted">The secret part keeps other programs and web pages on this computer from driving Harvest.
If you lost the address, stop <code>harvest serve</code> (Ctrl-C pauses running crawls safely) and start it again: it prints a new one.</p>
</main></body></html>
`;

export function sendTokenlessPage(res: ServerResponse, headOnly: boolean): void {
  res.writeHead(404, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'Referrer-Policy': 'no-referrer',
  });
  res.end(headOnly ? undefined : PAGE);
}
