import { promisify } from 'node:util';
import { deflateRaw } from 'node:zlib';
import { LARGE_BODY_BYTES } from '../fetch/exchange.js';
import { DEFAULT_PARSE_CAPS } from '../parse/html.js';
import { Mirror } from '../store/mirror.js';
import type { PreparedDocument, PrepareRequest, SaveFailure } from './documentWork.js';

const deflateRawAsync = promisify(deflateRaw);

/**
 * Large bodies, kept on the crawl's thread rather than copied to a document worker: a file over
 * 1 MiB is written from here (the write runs on libuv's threads, the loop stays free), and an HTML
 * page too large to parse (its copy is its bytes as they came) is held here until saved. A copy
 * handed to a worker lives there until the worker's next full collection: a crawl meeting 50 MB
 * gzip bombs held several at once.
 */
export class WholeFiles {
  private readonly held = new Map<number, Uint8Array>();
  private mirror: Mirror | null = null;

  constructor(
    private readonly mirrorRoot: string,
    private readonly tmpDir: string,
  ) {}

  /** Whether `write` takes this file rather than a worker. */
  static writes(data: Uint8Array): boolean {
    return data.byteLength > LARGE_BODY_BYTES;
  }

  /** Whether `prepare` takes this document: HTML over the parser's limit, with no focus to score (a worker scores even those). */
  static prepares(req: PrepareRequest): boolean {
    return req.kind === 'html' && req.body.byteLength > DEFAULT_PARSE_CAPS.maxParseBytes && req.focus === undefined;
  }

  /** A document as parseHtml leaves one over its limit: no title, text or links; held under `ticket` for save. */
  async prepare(ticket: number, req: PrepareRequest): Promise<PreparedDocument> {
    this.held.set(ticket, req.body);
    const original = req.packOriginal ? await deflateRawAsync(req.body, { level: 1 }) : null;
    return { title: null, text: null, textDigest: null, links: [], original };
  }

  /** Writes the document held under `ticket` as it came, and forgets it. */
  save(ticket: number, localPath: string): Promise<SaveFailure | null> {
    const body = this.held.get(ticket);
    if (body === undefined) throw new Error(`no prepared document ${ticket}`);
    this.held.delete(ticket);
    return this.write(localPath, body);
  }

  discard(ticket: number): void {
    this.held.delete(ticket);
  }

  /** Writes a file of the mirror; a file-system refusal comes back as a SaveFailure, as a worker's does. */
  async write(localPath: string, data: Uint8Array): Promise<SaveFailure | null> {
    this.mirror ??= new Mirror(this.mirrorRoot, this.tmpDir);
    try {
      await this.mirror.write(localPath, data);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (typeof err.code !== 'string') throw e;
      return { code: err.code, message: err.message };
    }
    return null;
  }
}
