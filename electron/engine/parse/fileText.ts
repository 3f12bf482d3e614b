import { decodeText, sniffCharset } from './decode.js';
import { cleanText, MAX_TEXT_CHARS, type DocumentText } from './pageText.js';

/** Files other than HTML whose text goes into the search index. */
export type TextFileKind = 'pdf' | 'text';

/** Larger PDFs are not read for text: pdf.js holds the whole file and its parsed objects in memory. */
export const MAX_PDF_BYTES = 32 * 1024 * 1024;

export function textFileKind(contentType: string | null, url: string): TextFileKind | null {
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mime === 'application/pdf') return 'pdf';
  if (mime === 'text/plain') return 'text';
  if (mime === '' || mime === 'application/octet-stream') {
    const path = new URL(url).pathname.toLowerCase();
    if (path.endsWith('.pdf')) return 'pdf';
    if (path.endsWith('.txt')) return 'text';
  }
  return null;
}

/** A plain-text file's text, decoded from its charset (BOM, then HTTP header, then UTF-8 or windows-1252). */
export function plainText(body: Buffer, contentType: string | null): DocumentText {
  const text = decodeText(body.subarray(0, MAX_TEXT_CHARS * 4), sniffCharset(body, contentType, 'html'));
  return { title: '', headings: '', body: cleanText(text.slice(0, MAX_TEXT_CHARS)) };
}

/** pdf2json marks each page's end with a line of its own. */
const PAGE_BREAK = /^-{16}Page \(\d+\) Break-{16}$/gm;

let pdfParser: Promise<typeof import('pdf2json').default> | null = null;
/** One PDF at a time per thread: pdf2json's pdf.js keeps state in module globals. */
let pdfQueue: Promise<unknown> = Promise.resolve();

/**
 * A PDF's text and title (its document information), by pdf2json (pure JavaScript, no
 * dependencies). null when it has none to give: too large, damaged, encrypted, or images only.
 */
export function pdfText(body: Uint8Array): Promise<DocumentText | null> {
  if (body.length > MAX_PDF_BYTES) return Promise.resolve(null);
  const run = pdfQueue.then(() => parsePdf(body));
  pdfQueue = run.catch(() => {});
  return run;
}

async function parsePdf(body: Uint8Array): Promise<DocumentText | null> {
  // pdf2json prints a damaged file's stack trace whatever the verbosity, through console methods
  // some of which it binds when loaded: muted from before the import, the crawl's output stays clean.
  const { log, error, warn, info } = console;
  console.log = console.error = console.warn = console.info = () => {};
  let parser: InstanceType<typeof import('pdf2json').default> | null = null;
  try {
    pdfParser ??= import('pdf2json').then((m) => m.default);
    const PDFParser = await pdfParser;
    // pdf2json reads `buffer.buffer` whole, so the bytes need an ArrayBuffer of their own (not a pool's).
    const own = Buffer.alloc(body.length);
    own.set(body);
    const p = new PDFParser(null, true);
    parser = p;
    const meta = await new Promise<Record<string, unknown> | null>((resolve) => {
      p.on('pdfParser_dataReady', (data) => resolve(data.Meta));
      p.on('pdfParser_dataError', () => resolve(null));
      p.parseBuffer(own, -1);
    });
    if (meta === null) return null;
    const text = cleanText(p.getRawTextContent().replace(PAGE_BREAK, '').slice(0, MAX_TEXT_CHARS));
    const title = typeof meta['Title'] === 'string' ? cleanText(meta['Title']) : '';
    return text === '' && title === '' ? null : { title, headings: '', body: text };
  } finally {
    Object.assign(console, { log, error, warn, info });
    parser?.destroy();
  }
}
