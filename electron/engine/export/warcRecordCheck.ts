import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createGunzip } from 'node:zlib';
import { base32 } from '../warc/digest.js';
import { parseWarcHead } from '../warc/fields.js';
import type { VerifyProblem } from './verifyReport.js';

const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');
/** A record head (or an HTTP head inside a block) longer than this is not one. */
const MAX_HEAD_BYTES = 1024 * 1024;
/** Past this many problems in one file the rest are counted, not listed. */
const MAX_PROBLEMS_PER_FILE = 20;
/** WARC digest labels (`sha1:`, `sha-256:` ...) node:crypto can recompute. */
const DIGEST_ALGORITHMS: Record<string, string> = { sha1: 'sha1', sha256: 'sha256', sha512: 'sha512', md5: 'md5' };

export interface WarcCheckResult {
  records: number;
  problems: VerifyProblem[];
}

/**
 * Reads a WARC file's bytes (a `.warc.gz` of gzip members, or a plain `.warc`) as they stream past
 * and checks every record: its head, its Content-Length and the `\r\n\r\n` after the block (the
 * framing), its WARC-Block-Digest and WARC-Payload-Digest (recomputed; a revisit's payload digest
 * names another record's payload, so only its block is checked), and each gzip member's CRC and
 * length (zlib checks them). Never throws for what it finds in the bytes: it reports and drains.
 */
export async function checkWarcRecords(source: AsyncIterable<Buffer>, file: string, gzipped: boolean): Promise<WarcCheckResult> {
  const checker = new RecordChecker(file);
  if (!gzipped) {
    for await (const chunk of source) checker.push(chunk);
    checker.end();
    return checker.result();
  }
  const gunzip = createGunzip();
  let failure: Error | null = null;
  gunzip.on('data', (c: Buffer) => checker.push(c));
  const finished = new Promise<void>((resolve) => {
    gunzip.once('end', resolve);
    gunzip.once('error', (e) => {
      failure = e;
      resolve();
    });
  });
  for await (const chunk of source) {
    // After a gzip error the rest is only drained, so the caller's hash of the file still completes.
    if (failure !== null || gunzip.write(chunk)) continue;
    await Promise.race([once(gunzip, 'drain'), finished]);
  }
  if (failure === null) gunzip.end();
  await finished;
  if (failure !== null) checker.gzipFailed(failure);
  else checker.end();
  return checker.result();
}

type State = 'head' | 'block' | 'trailer' | 'dead';

interface Current {
  index: number;
  /** Where the record starts in the uncompressed stream. */
  offset: number;
  type: string;
  uri: string;
  remaining: number;
  block: DigestCheck | null;
  payload: DigestCheck | null;
  /** Bytes of the block's HTTP head still being looked for; null once found or when there is none. */
  httpHead: Buffer | null;
}

interface DigestCheck {
  label: string;
  declared: string;
  hash: Hash;
}

/** The record-by-record state machine over the uncompressed WARC stream. */
class RecordChecker {
  #state: State = 'head';
  #pending: Buffer = Buffer.alloc(0);
  #offset = 0;
  #records = 0;
  #current: Current | null = null;
  readonly #problems: VerifyProblem[] = [];
  #unlisted = 0;

  constructor(private readonly file: string) {}

  push(chunk: Buffer): void {
    let data = chunk;
    while (data.length > 0 && this.#state !== 'dead') {
      if (this.#state === 'head') data = this.#head(data);
      else if (this.#state === 'block') data = this.#block(data);
      else data = this.#trailer(data);
    }
  }

  end(): void {
    if (this.#state === 'dead') return;
    if (this.#state !== 'head' || this.#pending.length > 0) {
      const r = this.#current;
      this.#problem('invalid', r ? `${describe(r)} is cut short: the file ends inside it` : `the file ends inside a record head at byte ${this.#offset}`);
    }
  }

  gzipFailed(e: Error): void {
    // zlib drops what it inflated of a damaged chunk, so the place is known only roughly.
    this.#problem('invalid', `gzip data damaged: ${e.message} (${this.#records} records read intact before it)`);
    this.#state = 'dead';
  }

  result(): WarcCheckResult {
    const problems = [...this.#problems];
    if (this.#unlisted > 0) problems.push({ kind: 'invalid', path: this.file, detail: `and ${this.#unlisted} more problem(s) in this file` });
    return { records: this.#records, problems };
  }

  #head(data: Buffer): Buffer {
    const buf = this.#pending.length === 0 ? data : Buffer.concat([this.#pending, data]);
    const end = buf.indexOf(CRLFCRLF);
    if (end < 0) {
      this.#pending = buf;
      if (buf.length > MAX_HEAD_BYTES || (buf.length >= 5 && !buf.subarray(0, 5).equals(Buffer.from('WARC/')))) this.#lost(buf);
      return Buffer.alloc(0);
    }
    this.#pending = Buffer.alloc(0);
    const headLength = end + CRLFCRLF.length;
    const head = parseWarcHead(buf.subarray(0, headLength).toString('utf8'));
    const length = head?.get('content-length');
    if (head === null || length === undefined || !/^\d+$/.test(length)) {
      this.#lost(buf);
      return Buffer.alloc(0);
    }
    const type = head.get('warc-type') ?? '';
    const isHttp = /^application\/http/i.test(head.get('content-type') ?? '');
    const current: Current = {
      index: this.#records + 1,
      offset: this.#offset,
      type,
      uri: head.get('warc-target-uri') ?? '',
      remaining: Number(length),
      block: this.#digestCheck('WARC-Block-Digest', head.get('warc-block-digest')),
      // A revisit's payload digest is the digest of the payload it refers to, not of anything here.
      payload: type === 'revisit' ? null : this.#digestCheck('WARC-Payload-Digest', head.get('warc-payload-digest')),
      httpHead: null,
    };
    if (current.payload !== null && isHttp) current.httpHead = Buffer.alloc(0);
    this.#current = current;
    this.#offset += headLength;
    this.#state = 'block';
    return buf.subarray(headLength);
  }

  #block(data: Buffer): Buffer {
    const r = this.#current!;
    const take = data.subarray(0, Math.min(r.remaining, data.length));
    r.block?.hash.update(take);
    if (r.payload !== null) {
      if (r.httpHead === null) r.payload.hash.update(take);
      else {
        // The payload starts after the HTTP head's blank line, which may straddle chunks.
        const seen = Buffer.concat([r.httpHead, take]);
        const end = seen.indexOf(CRLFCRLF);
        if (end >= 0) {
          r.payload.hash.update(seen.subarray(end + CRLFCRLF.length));
          r.httpHead = null;
        } else r.httpHead = seen.length > MAX_HEAD_BYTES ? seen.subarray(-3) : seen;
      }
    }
    r.remaining -= take.length;
    this.#offset += take.length;
    if (r.remaining === 0) {
      this.#state = 'trailer';
      this.#pending = Buffer.alloc(0);
    }
    return data.subarray(take.length);
  }

  #trailer(data: Buffer): Buffer {
    const r = this.#current!;
    const need = CRLFCRLF.length - this.#pending.length;
    this.#pending = Buffer.concat([this.#pending, data.subarray(0, need)]);
    if (this.#pending.length < CRLFCRLF.length) return Buffer.alloc(0);
    if (!this.#pending.equals(CRLFCRLF)) {
      this.#problem('invalid', `${describe(r)}: its block is not followed by \\r\\n\\r\\n, so Content-Length is wrong`);
      this.#state = 'dead';
      return Buffer.alloc(0);
    }
    this.#offset += CRLFCRLF.length;
    this.#pending = Buffer.alloc(0);
    this.#finishRecord(r);
    this.#state = 'head';
    return data.subarray(need);
  }

  #finishRecord(r: Current): void {
    this.#records++;
    if (r.payload !== null && r.httpHead !== null) {
      this.#problem('invalid', `${describe(r)}: no HTTP head ends in its block`);
      r.payload = null;
    }
    for (const check of [r.block, r.payload]) {
      if (check === null) continue;
      const digest = check.hash.digest();
      if (!digestMatches(check.declared, digest)) {
        this.#problem('altered', `${describe(r)}: ${check.label} is ${check.declared.split(':')[0]}:${base32(digest)}, the record says ${check.declared}`);
      }
    }
  }

  #digestCheck(label: string, value: string | undefined): DigestCheck | null {
    if (value === undefined) return null;
    const alg = DIGEST_ALGORITHMS[value.split(':', 1)[0]!.toLowerCase().replace('-', '')];
    return alg === undefined ? null : { label, declared: value, hash: createHash(alg) };
  }

  /** No record starts here: the rest of the file cannot be framed. */
  #lost(buf: Buffer): void {
    const after = this.#records === 0 ? 'at the start of the file' : `after record ${this.#records}`;
    this.#problem('invalid', `no WARC record head ${after} (byte ${this.#offset}): ${JSON.stringify(buf.subarray(0, 40).toString('latin1'))}`);
    this.#state = 'dead';
  }

  #problem(kind: 'altered' | 'invalid', detail: string): void {
    if (this.#problems.length >= MAX_PROBLEMS_PER_FILE) this.#unlisted++;
    else this.#problems.push({ kind, path: this.file, detail });
  }
}

function describe(r: Current): string {
  return `record ${r.index} (${r.type || 'untyped'}${r.uri ? ` ${r.uri}` : ''}, byte ${r.offset} uncompressed)`;
}

/** A WARC digest value is base32 (most writers) or hex (some); either is accepted. */
function digestMatches(declared: string, digest: Buffer): boolean {
  const value = declared.slice(declared.indexOf(':') + 1).trim();
  return value.replace(/=+$/, '').toUpperCase() === base32(digest).replace(/=+$/, '') || value.toLowerCase() === digest.toString('hex');
}
