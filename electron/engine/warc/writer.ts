import { mkdir, readdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip, gzipSync, type ZlibOptions } from 'node:zlib';
import { GenerationalCache } from '../generationalCache.js';
import { warcDigest } from './digest.js';
import { WarcError } from './errors.js';
import { fieldLines, type Field } from './fields.js';
import { checkPrefix, warcFileName, warcFilesOf, type WarcFileEntry } from './fileNames.js';
import { newRecordId } from './record.js';
import { metadataRecord, requestRecord, resourceRecord, responseRecord, revisitRecord, warcinfoRecord } from './records.js';
import { resumeWarc } from './resume.js';
import type {
  ExchangeLocation,
  OriginalCapture,
  WarcExchange,
  WarcMetadata,
  WarcRecordLocation,
  WarcRepair,
  WarcResource,
  WarcWriterOptions,
} from './types.js';
import { WarcFile } from './warcFile.js';

const gzipAsync = promisify(gzip);

/**
 * Level 1: most payloads arrive content-encoded or are images, so a higher level costs several
 * times the CPU for a few percent. Records up to SYNC_GZIP_BYTES are compressed on the calling
 * thread: for them the thread-pool round trip and stream machinery of async gzip cost more than
 * the compression itself; larger ones go to the pool so a big download never blocks the crawl loop.
 */
const GZIP_OPTIONS: ZlibOptions = { level: 1 };
/**
 * Deflating a payload that is already compressed gains nothing and costs as much as any other:
 * such records are stored in their gzip member (still CRC-checked, still one member per record).
 */
const STORED_OPTIONS: ZlibOptions = { level: 0 };
const SYNC_GZIP_BYTES = 256 * 1024;
/** Media types whose bodies are compressed formats themselves. */
const COMPRESSED_TYPES =
  /^(image\/(jpeg|png|gif|webp|avif|heic|jxl)|video\/|audio\/(mpeg|mp4|aac|ogg|opus|webm|flac)|font\/woff2?|application\/(zip|gzip|x-gzip|zstd|x-bzip2|x-xz|x-7z-compressed|x-rar-compressed))\s*(;|$)/;

const DEFAULT_MAX_FILE_BYTES = 1024 ** 3;
/** A resume re-checks at most this much of a file before its tail; one checkpoint write per this much. */
const CHECKPOINT_BYTES = 1024 * 1024;
const DEFAULT_REMEMBERED_DIGESTS = 50_000;

interface CurrentFile {
  file: WarcFile;
  warcinfoId: string;
  /** Where the records after the warcinfo record start. */
  recordsStart: number;
}

type MemberPlace = Omit<WarcRecordLocation, 'recordId'>;

/**
 * Writes what a crawl fetches as WARC 1.1 files: each record its own gzip member (so a reader can
 * start at any record's offset), each file opened by a warcinfo record, files finished at
 * maxFileBytes. Calls are queued and written one after another, so concurrent callers never
 * interleave bytes; each returns once its records are in the file.
 *
 * One writer per directory and prefix at a time (the archive's lock sees to that).
 */
export class WarcWriter {
  readonly #dir: string;
  readonly #prefix: string;
  readonly #maxFileBytes: number;
  readonly #info: readonly Field[];
  readonly #seenDigest: WarcWriterOptions['seenDigest'];
  readonly #onOriginal: WarcWriterOptions['onOriginal'];
  readonly #checkpoints: WarcWriterOptions['checkpoints'];
  #checkpointed = 0;
  /** Payloads written by this writer: bounded, oldest forgotten first. */
  readonly #memory: GenerationalCache<string, OriginalCapture>;
  readonly #repairs: WarcRepair[] = [];
  #current: CurrentFile | null = null;
  #nextSerial: number;
  #queue: Promise<unknown> = Promise.resolve();
  #closing: Promise<void> | null = null;

  private constructor(opts: WarcWriterOptions, info: readonly Field[], nextSerial: number) {
    this.#dir = opts.dir;
    this.#prefix = opts.prefix;
    this.#maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.#info = info;
    this.#seenDigest = opts.seenDigest;
    this.#onOriginal = opts.onOriginal;
    this.#checkpoints = opts.checkpoints;
    // Two generations of half the bound each.
    this.#memory = new GenerationalCache(Math.ceil((opts.maxRememberedDigests ?? DEFAULT_REMEMBERED_DIGESTS) / 2));
    this.#nextSerial = nextSerial;
  }

  /**
   * Opens a writer on a directory. The newest unfinished file of this prefix is resumed once its
   * damaged tail, if any, is cut off (see `repairs`); older unfinished ones are finished as they are.
   */
  static async open(opts: WarcWriterOptions): Promise<WarcWriter> {
    checkPrefix(opts.prefix);
    const max = opts.maxFileBytes;
    if (max !== undefined && !(Number.isSafeInteger(max) && max > 0)) {
      throw new WarcError('invalid', `maxFileBytes must be a positive integer: ${max}`);
    }
    const info: Field[] = [['software', opts.software], ...Object.entries(opts.info ?? {})];
    fieldLines(info); // rejects a line break now rather than at the first file
    await mkdir(opts.dir, { recursive: true });
    const files = warcFilesOf(opts.prefix, await readdir(opts.dir));
    const writer = new WarcWriter(opts, info, (files.at(-1)?.serial ?? -1) + 1);
    await writer.#resume(files.filter((f) => f.open));
    return writer;
  }

  /** Damaged tails that were cut off unfinished files when the writer opened. */
  get repairs(): readonly WarcRepair[] {
    return this.#repairs;
  }

  /**
   * One fetch: a 'response' record, or a 'revisit' (identical-payload-digest profile) when a
   * non-empty payload with this digest was already archived, then its 'request' record pointing to
   * it with WARC-Concurrent-To. Returns the response or revisit record's place.
   */
  async writeExchange(x: WarcExchange): Promise<ExchangeLocation> {
    this.#checkOpen();
    const payloadDigest = warcDigest([x.payload]);
    return this.#enqueue(async () => {
      // An empty payload is never worth a revisit: it would save nothing.
      const dedupable = x.payload.length > 0;
      const original = dedupable ? await this.#originalOf(payloadDigest) : null;
      const responseId = newRecordId();
      const requestId = newRecordId();
      const [response] = await this.#append(
        (warcinfoId) => [
          original === null
            ? responseRecord(x, { id: responseId, warcinfoId }, payloadDigest)
            : revisitRecord(x, { id: responseId, warcinfoId }, payloadDigest, original),
          requestRecord(x, { id: requestId, warcinfoId }, responseId),
        ],
        original === null && isCompressedPayload(x.responseHeaders) ? STORED_OPTIONS : GZIP_OPTIONS,
      );
      if (original === null && dedupable) {
        const place = { file: response!.file, offset: response!.offset, length: response!.length };
        const capture = { url: x.url, date: x.date, recordId: responseId, place };
        this.#memory.set(payloadDigest, capture);
        this.#onOriginal?.(payloadDigest, capture);
      }
      return { ...response!, recordId: responseId, payloadDigest, ...(original !== null && { revisitOf: original }) };
    });
  }

  /**
   * A 304 answer to a conditional request: a 'revisit' record (server-not-modified profile) with the
   * 304's head, pointing at the capture that holds the payload (whose digest it carries when known),
   * then its 'request' record. No payload is stored.
   */
  async writeNotModified(x: WarcExchange, original: OriginalCapture, payloadDigest: string | null): Promise<WarcRecordLocation> {
    this.#checkOpen();
    return this.#enqueue(async () => {
      const revisitId = newRecordId();
      const requestId = newRecordId();
      const [revisit] = await this.#append((warcinfoId) => [
        revisitRecord(x, { id: revisitId, warcinfoId }, payloadDigest, original, 'notModified'),
        requestRecord(x, { id: requestId, warcinfoId }, revisitId),
      ]);
      return { ...revisit!, recordId: revisitId };
    });
  }

  /** A 'metadata' record concurrent to a response: the outlinks found on the page. */
  async writeMetadata(m: WarcMetadata): Promise<WarcRecordLocation> {
    this.#checkOpen();
    return this.#enqueue(async () => {
      const id = newRecordId();
      const [place] = await this.#append((warcinfoId) => [metadataRecord(m, { id, warcinfoId })]);
      return { ...place!, recordId: id };
    });
  }

  /** A 'resource' record: something Harvest made about a page, such as its thumbnail. */
  async writeResource(r: WarcResource): Promise<WarcRecordLocation> {
    this.#checkOpen();
    const compressed = isCompressedPayload([['Content-Type', r.contentType]]);
    return this.#enqueue(async () => {
      const id = newRecordId();
      const [place] = await this.#append((warcinfoId) => [resourceRecord(r, { id, warcinfoId })], compressed ? STORED_OPTIONS : GZIP_OPTIONS);
      return { ...place!, recordId: id };
    });
  }

  /** Waits for queued writes, then finishes the current file. Later writes are refused. */
  close(): Promise<void> {
    this.#closing ??= this.#enqueue(() => this.#finishCurrent());
    return this.#closing;
  }

  #checkOpen(): void {
    if (this.#closing !== null) throw new WarcError('closed', 'the WARC writer is closed');
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    // One failed write must not stop the ones queued behind it.
    this.#queue = run.catch(() => {});
    return run;
  }

  async #originalOf(digest: string): Promise<OriginalCapture | null> {
    return this.#memory.get(digest) ?? (await this.#seenDigest?.(digest)) ?? null;
  }

  /**
   * Appends records, each gzipped as its own member, in one write. When they would take the file
   * past maxFileBytes (and it already holds records) the file is finished first and the records,
   * which name their file's warcinfo record, are built again for the next one.
   */
  async #append(build: (warcinfoId: string) => Buffer[], gzip: ZlibOptions = GZIP_OPTIONS): Promise<MemberPlace[]> {
    let current = await this.#currentFile();
    let members = await gzipEach(build(current.warcinfoId), gzip);
    const bytes = members.reduce((n, m) => n + m.length, 0);
    if (current.file.size > current.recordsStart && current.file.size + bytes > this.#maxFileBytes) {
      await this.#finishCurrent();
      current = await this.#currentFile();
      members = await gzipEach(build(current.warcinfoId), gzip);
    }
    let offset = await current.file.append(Buffer.concat(members));
    if (this.#checkpoints !== undefined && current.file.size - this.#checkpointed >= CHECKPOINT_BYTES) {
      this.#checkpointed = current.file.size;
      this.#checkpoints.set(current.file.name, current.file.size);
    }
    return members.map((m) => {
      const place = { file: current.file.name, offset, length: m.length };
      offset += m.length;
      return place;
    });
  }

  async #currentFile(): Promise<CurrentFile> {
    if (this.#current === null) {
      const name = warcFileName(this.#prefix, new Date(), this.#nextSerial++);
      this.#current = await this.#begin(await WarcFile.create(this.#dir, name));
      this.#checkpointed = 0;
    }
    return this.#current;
  }

  /** Writes an empty file's warcinfo record. */
  async #begin(file: WarcFile): Promise<CurrentFile> {
    const warcinfoId = newRecordId();
    await file.append(await gzipMember(warcinfoRecord(warcinfoId, new Date(), file.name, this.#info), GZIP_OPTIONS));
    return { file, warcinfoId, recordsStart: file.size };
  }

  async #finishCurrent(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    await current?.file.seal();
  }

  async #resume(unfinished: readonly WarcFileEntry[]): Promise<void> {
    for (const [i, entry] of unfinished.entries()) {
      const resumed = await resumeWarc(this.#dir, entry.name, this.#checkpoints?.get(entry.name) ?? 0);
      if (resumed.repair !== null) this.#repairs.push(resumed.repair);
      const { file, warcinfoId } = resumed;
      const newest = i === unfinished.length - 1;
      if (newest && warcinfoId !== null) {
        this.#current = { file, warcinfoId, recordsStart: resumed.warcinfoEnd };
        this.#checkpointed = file.size;
        this.#checkpoints?.set(file.name, file.size);
      } else if (newest && file.size === 0) {
        this.#current = await this.#begin(file);
      } else if (file.size === 0) {
        // Nothing survived in it: a finished file with no warcinfo record would only confuse readers.
        await file.discard();
      } else {
        await file.seal();
      }
    }
  }
}

function gzipEach(records: readonly Buffer[], options: ZlibOptions): Promise<Buffer[]> {
  return Promise.all(records.map((r) => gzipMember(r, options)));
}

async function gzipMember(record: Buffer, options: ZlibOptions): Promise<Buffer> {
  return record.length <= SYNC_GZIP_BYTES ? gzipSync(record, options) : gzipAsync(record, options);
}

/** Whether the payload as received is compressed: content-encoded, or a compressed format. */
function isCompressedPayload(headers: readonly (readonly [string, string])[]): boolean {
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    if (key === 'content-encoding' && !/^\s*(identity)?\s*$/i.test(value)) return true;
    if (key === 'content-type' && COMPRESSED_TYPES.test(value.trim().toLowerCase())) return true;
  }
  return false;
}
