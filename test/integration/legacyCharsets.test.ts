/**
 * Pages in legacy charsets must be saved as UTF-8 that displays correctly when opened from disk:
 * one `<meta charset="utf-8">` as the only charset declaration, and the same text a browser showed
 * online. The bench site provides GBK and windows-1252 pages declared every way (meta charset,
 * http-equiv with the gb2312 label, the HTTP header alone, the iso-8859-1 label); a small server
 * of our own adds Big5 and Shift_JIS, encoded with iconv-lite.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import iconv from 'iconv-lite';
import type { UrlRecord } from '../../shared/crawl.js';
import { startBenchSite, type BenchSite } from '../helpers/benchSite.js';
import { listRecords, runHarvest, type HarvestRun } from '../helpers/harvestCli.js';

const PAGES = 150;
const UTF8_META = '<meta charset="utf-8">';
/** Opened from disk there is no HTTP header: the declaration must fall inside the browser's prescan, or a BOM must say UTF-8. */
const PRESCAN_BYTES = 1024;

/** A bench manifest page entry, with the charset fields sitegen adds. */
interface CharsetPage {
  id: string;
  url: string;
  file: string;
  charset: string;
  charsetDecl?: 'meta' | 'http-equiv' | 'header' | 'meta-latin1';
}

// ----------------------------------------------------------------- reference decoding

/** WHATWG index-windows-1252, bytes 0x80-0x9F (the rest is ISO-8859-1). */
const WINDOWS_1252_C1 = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
  0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];

/**
 * Node 20.18.3+ and 22.13+ decode windows-1252 (and the labels mapped to it: iso-8859-1, latin1,
 * ascii) as ISO-8859-1, so 0x80-0x9F come out as C1 controls instead of € ' " Œ ...
 * (nodejs/node#56542, #60888). Where that bug is present the reference decoding uses the table.
 */
const NODE_WINDOWS_1252_BROKEN = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) !== '\u20ac';

/** The text a browser shows for these bytes in this charset: TextDecoder, with the windows-1252 fix above. */
function referenceDecode(bytes: Buffer, charset: string): string {
  const decoder = new TextDecoder(charset);
  if (decoder.encoding !== 'windows-1252' || !NODE_WINDOWS_1252_BROKEN) return decoder.decode(bytes);
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b >= 0x80 && b <= 0x9f ? WINDOWS_1252_C1[b - 0x80]! : b);
  return out;
}

// ----------------------------------------------------------------- Big5 and Shift_JIS pages

interface ExtraPage {
  path: string;
  /** WHATWG label, for TextDecoder and the declarations. */
  charset: string;
  contentType: string;
  /** The declaration in <head>, if any. */
  decl: string;
  title: string;
  text: string;
}

/**
 * Both texts hold characters whose second byte is 0x5C ('\'): 許功蓋 in Big5, ソ表能予 in Shift_JIS,
 * the classic traps for byte-oriented code; Shift_JIS also has one-byte half-width katakana.
 */
const EXTRA_PAGES: ExtraPage[] = [
  {
    path: '/big5.html',
    charset: 'big5',
    contentType: 'text/html',
    decl: '<meta charset="big5">',
    title: '國立臺灣大學圖書館 特藏資料',
    text: '許功蓋：這些字的第二個位元組是反斜線。臺北市、高雄市，民國一一三年。',
  },
  {
    path: '/shift_jis.html',
    charset: 'shift_jis',
    contentType: 'text/html; charset=Shift_JIS',
    decl: '<meta http-equiv="Content-Type" content="text/html; charset=shift_jis">',
    title: '東京大学附属図書館 貴重書コレクション',
    text: 'ソ・表・能・予は二バイト目が0x5Cの文字です。カタカナ：アイウエオ。半角：ｶﾀｶﾅ。',
  },
];

function extraPageBytes(p: ExtraPage): Buffer {
  const html =
    `<!DOCTYPE html>\n<html>\n<head>\n${p.decl}\n<title>${p.title}</title>\n</head>\n` +
    `<body>\n<h1>${p.title}</h1>\n<p>${p.text}</p>\n<p><a href="/">top</a></p>\n</body>\n</html>\n`;
  const bytes = iconv.encode(html, p.charset);
  // The fixture itself must round-trip through the WHATWG decoder, or the test would prove nothing.
  assert.equal(referenceDecode(bytes, p.charset), html, `${p.path}: iconv-lite and TextDecoder disagree`);
  return bytes;
}

async function startExtraSite(): Promise<{ origin: string; bytes: Map<string, Buffer>; close(): Promise<void> }> {
  const bytes = new Map(EXTRA_PAGES.map((p) => [p.path, extraPageBytes(p)]));
  const index = Buffer.from(
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Legacy charsets</title></head><body>\n` +
      EXTRA_PAGES.map((p) => `<p><a href="${p.path}">${p.charset}</a></p>`).join('\n') +
      '\n</body></html>\n',
  );
  const server: Server = createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const page = EXTRA_PAGES.find((x) => x.path === p);
    const [type, body] = p === '/' ? ['text/html; charset=utf-8', index] : page ? [page.contentType, bytes.get(p)!] : [null, null];
    if (type === null || body === null) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    bytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ----------------------------------------------------------------- checks on a saved copy

/** Every <meta> that declares a charset (a charset attribute, or http-equiv=content-type), as written. */
function charsetDeclarations(html: string): { tag: string; end: number }[] {
  const out: { tag: string; end: number }[] = [];
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = m[0];
    if (/\scharset\s*=/i.test(tag) || /\shttp-equiv\s*=\s*["']?content-type/i.test(tag)) {
      out.push({ tag, end: m.index + tag.length });
    }
  }
  return out;
}

/** What a reader sees: the text outside tags, comments, scripts and styles, whitespace collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function titleOf(html: string): string | null {
  return /<title>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? null;
}

/**
 * The saved copy is valid UTF-8, declares UTF-8 once (in reach of the prescan) and nothing else,
 * and shows the text the original showed when decoded in its own charset.
 */
function assertSavedAsUtf8(label: string, original: Buffer, charset: string, saved: Buffer): void {
  const online = referenceDecode(original, charset);
  let offline: string;
  try {
    offline = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(saved);
  } catch {
    assert.fail(`${label}: the saved copy is not valid UTF-8`);
  }
  const bom = offline.startsWith('\uFEFF');
  if (bom) offline = offline.slice(1);

  const decls = charsetDeclarations(offline);
  assert.deepEqual(
    decls.map((d) => d.tag),
    [UTF8_META],
    `${label}: charset declarations left in the saved copy`,
  );
  const declEnd = Buffer.byteLength(offline.slice(0, decls[0]!.end));
  assert.ok(bom || declEnd <= PRESCAN_BYTES, `${label}: ${UTF8_META} ends at byte ${declEnd}, past the prescan, and there is no BOM`);

  const onlineText = visibleText(online);
  assert.match(onlineText, /[^\x00-\x7f]/, `${label}: the original has no non-ASCII text, nothing is tested`);
  assert.ok(!onlineText.includes('\uFFFD'), `${label}: the original does not decode cleanly as ${charset}`);
  const title = titleOf(online);
  assert.ok(title, `${label}: the original has no <title>`);
  assert.equal(titleOf(offline), title, `${label}: title`);
  assert.equal(visibleText(offline), onlineText, `${label}: the saved text differs from the original's`);
}

// ----------------------------------------------------------------- the crawl

/** The bench site's legacy pages, by how sitegen declares their charset. */
const BENCH_CASES: { name: string; charset: string; decl: CharsetPage['charsetDecl'] }[] = [
  { name: 'GBK declared by <meta charset="gbk">', charset: 'gbk', decl: 'meta' },
  { name: 'GBK declared by http-equiv with the gb2312 label', charset: 'gbk', decl: 'http-equiv' },
  { name: 'GBK declared only by the HTTP header', charset: 'gbk', decl: 'header' },
  { name: 'windows-1252 declared by <meta charset>', charset: 'windows-1252', decl: 'meta' },
  { name: 'windows-1252 declared by http-equiv', charset: 'windows-1252', decl: 'http-equiv' },
  { name: 'windows-1252 declared only by the HTTP header', charset: 'windows-1252', decl: 'header' },
  { name: 'windows-1252 declared with the iso-8859-1 label', charset: 'windows-1252', decl: 'meta-latin1' },
];

describe(`legacy charsets saved as UTF-8 (${PAGES}-page bench site, Big5 and Shift_JIS pages)`, () => {
  let work: string;
  let site: BenchSite;
  let extra: Awaited<ReturnType<typeof startExtraSite>>;
  let archive: string;
  let run: HarvestRun;
  let records: Map<string, UrlRecord>;
  let legacyPages: CharsetPage[];

  const savedBytes = (url: string): Buffer => {
    assert.ok(records, `no catalogue to read (exit ${run.status}): ${run.stderr}`);
    const r = records.get(url);
    assert.ok(r, `${url} is not in the catalogue`);
    assert.equal(r.state, 'archived', `${url}: ${r.state} ${r.error ?? ''}`);
    assert.ok(r.localPath, `${url} has no local path`);
    return readFileSync(path.join(archive, 'mirror', r.localPath));
  };

  const checkBenchPage = (p: CharsetPage): void => {
    const original = readFileSync(path.join(site.dir, p.file));
    assertSavedAsUtf8(`${p.url} (${p.charset}, ${p.charsetDecl})`, original, p.charset, savedBytes(`${site.origin}${p.url}`));
  };

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-charsets-'));
    site = await startBenchSite({ pages: PAGES, workDir: work });
    extra = await startExtraSite();
    legacyPages = (site.manifest.pages as unknown as CharsetPage[]).filter((p) => p.charset.toLowerCase() !== 'utf-8');
    archive = path.join(work, 'archive');
    run = await runHarvest(['crawl', `${site.origin}/`, `${extra.origin}/`, '--out', archive, '--quiet', '--delay-ms', '0'], {
      timeoutMs: 240_000,
    });
    // Read whatever the catalogue holds even after a failed run, so each test can say what went wrong.
    if (existsSync(path.join(archive, 'catalogue.sqlite'))) records = new Map(listRecords(archive).map((r) => [r.url, r]));
  });

  after(async () => {
    await site?.stop();
    await extra?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('finishes with exit code 0', () => {
    assert.equal(run.timedOut, false, 'the crawl did not end within 240 s');
    assert.equal(run.status, 0, `exit ${run.status} ${run.signal ?? ''}\n${run.stderr}`);
  });

  it('finds legacy pages of every declaration kind in the bench site', () => {
    for (const c of BENCH_CASES) {
      assert.ok(
        legacyPages.some((p) => p.charset === c.charset && p.charsetDecl === c.decl),
        `the bench site has no page for: ${c.name}`,
      );
    }
    const known = new Set(BENCH_CASES.map((c) => `${c.charset}/${c.decl}`));
    const unknown = legacyPages.filter((p) => !known.has(`${p.charset}/${p.charsetDecl}`));
    assert.deepEqual(unknown.map((p) => p.url), [], 'legacy pages of a kind this test does not cover');
  });

  for (const c of BENCH_CASES) {
    it(`saves ${c.name} as UTF-8`, () => {
      const pages = legacyPages.filter((p) => p.charset === c.charset && p.charsetDecl === c.decl);
      assert.ok(pages.length > 0, `no page for: ${c.name}`);
      for (const p of pages) checkBenchPage(p);
    });
  }

  for (const p of EXTRA_PAGES) {
    it(`saves a ${p.charset} page (${p.contentType.includes('charset') ? 'HTTP header and ' : ''}${p.decl}) as UTF-8`, () => {
      const saved = savedBytes(`${extra.origin}${p.path}`);
      assertSavedAsUtf8(p.path, extra.bytes.get(p.path)!, p.charset, saved);
      const text = new TextDecoder('utf-8').decode(saved);
      assert.ok(text.includes(p.title), `${p.path}: title '${p.title}' not in the saved copy`);
      assert.ok(text.includes(p.text), `${p.path}: text '${p.text}' not in the saved copy`);
    });
  }
});
