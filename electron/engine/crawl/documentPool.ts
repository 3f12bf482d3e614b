import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { TextFileKind } from '../parse/fileText.js';
import type { PackedText } from '../store/packedText.js';
import type { TextPlace } from '../store/textIndex.js';
import type { Template } from '../../../shared/template.js';
import type { PreparedDocument, PrepareRequest, SaveFailure, SaveRequest } from './documentWork.js';

/** What a document worker is started with: where the mirror and its temporary files are. */
export interface DocumentWorkerData {
  mirrorRoot: string;
  tmpDir: string;
  /** A focused crawl's template: pages asked for are scored against it. */
  template?: Template | null;
  /** The search index the workers file the texts they keep in (a crawl's); absent, they keep none. */
  textIndexFile?: string;
}

export type ToDocumentWorker =
  | { op: 'prepare'; ticket: number; req: PrepareRequest }
  | { op: 'save'; ticket: number; req: SaveRequest }
  | { op: 'write'; ticket: number; localPath: string; data: Uint8Array }
  | { op: 'fileText'; ticket: number; kind: TextFileKind; data: Uint8Array; contentType: string | null; index?: TextPlace }
  | { op: 'flushText'; ticket: number; release: boolean }
  | { op: 'compactTextIndex'; ticket: number; file: string }
  | { op: 'discard'; ticket: number };

/** A worker's answer to one request, by its ticket. */
export type DocumentReply =
  | { ticket: number; ok: true; prepared: Omit<PreparedDocument, 'original'> & { original: Uint8Array | null } }
  | { ticket: number; ok: true; failure: SaveFailure | null }
  | { ticket: number; ok: true; text: PackedText | null }
  | { ticket: number; ok: true; compacted: true }
  | { ticket: number; ok: true; flushed: true }
  | { ticket: number; ok: false; error: string };

/** The first message says the worker has loaded; every other answers a request. */
export type FromDocumentWorker = { ready: true } | DocumentReply;

/** A document parsed in a worker, which keeps it until it is saved or discarded. */
export interface PreparedTicket extends PreparedDocument {
  readonly ticket: number;
  readonly worker: number;
}

/**
 * The crawl's event loop decides and records; parsing, rendering and saving a document are most of
 * its CPU otherwise. As many workers as cores: on 2 cores a second worker made the Python and
 * PostgreSQL manuals' crawl 12% faster (13.6-14.3 -> 11.7-12.5 s) and cost the 5,000-page bench site
 * nothing in wall time. Eight at most: the single crawl loop feeds no more, and each holds its heap.
 */
function defaultDocumentWorkers(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

/**
 * A worker's garbage is mostly short-lived parse output: a small young generation keeps its memory
 * down. The old generation's cap is far above what the crawl's parse budget lets a worker hold at
 * once, so reaching it means a fault, not a big page.
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 };

interface Pending {
  resolve: (m: DocumentReply) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Settles once the worker has loaded its modules, or has failed to. */
  ready: Promise<void>;
  pending: Map<number, Pending>;
  /** Documents prepared here and not yet saved or discarded. */
  held: number;
  gone: Error | null;
}

/** Worker threads that parse, render and save documents, and write the other files, for one crawl. */
export class DocumentPool {
  private readonly slots: Slot[];
  private nextTicket = 1;

  /** One worker at first, up to `size` as documents queue (see leastBusy): a small crawl starts one. */
  constructor(
    private readonly data: DocumentWorkerData,
    private readonly size = defaultDocumentWorkers(),
  ) {
    this.slots = [this.start(data)];
  }

  private start(data: DocumentWorkerData): Slot {
    let loaded: () => void = () => {};
    let failed: (e: Error) => void = () => {};
    const slot: Slot = {
      worker: new Worker(new URL('./documentWorker.js', import.meta.url), { workerData: data, resourceLimits: WORKER_HEAP }),
      ready: new Promise((resolve, reject) => ((loaded = resolve), (failed = reject))),
      pending: new Map(),
      held: 0,
      gone: null,
    };
    // Nobody may be waiting on it yet: its failure still reaches every later call through `gone`.
    slot.ready.catch(() => {});
    const end = (e: Error) => {
      slot.gone ??= e;
      failed(slot.gone);
      for (const p of slot.pending.values()) p.reject(slot.gone);
      slot.pending.clear();
    };
    slot.worker.on('message', (m: FromDocumentWorker) => {
      if ('ready' in m) {
        loaded();
        return;
      }
      const p = slot.pending.get(m.ticket);
      slot.pending.delete(m.ticket);
      p?.resolve(m);
    });
    slot.worker.on('error', end);
    slot.worker.on('exit', (code) => end(new Error(`a document worker stopped (exit code ${code})`)));
    return slot;
  }

  /**
   * Resolves once the workers started so far have loaded: starting one costs the process some CPU,
   * which is better spent before a crawl begins reporting progress than in its first second.
   */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** Parses a document in the least busy worker, which keeps it for save() or discard(). */
  async prepare(req: PrepareRequest): Promise<PreparedTicket> {
    const index = this.leastBusy();
    const slot = this.slots[index]!;
    const ticket = this.nextTicket++;
    slot.held++;
    let m: DocumentReply;
    // Sent as a copy of its own, handed over rather than cloned: a body can be a view into a far larger buffer.
    const body = new Uint8Array(req.body);
    try {
      m = await this.ask(slot, { op: 'prepare', ticket, req: { ...req, body } }, [body.buffer]);
    } catch (e) {
      slot.held--;
      throw e;
    }
    if (!('prepared' in m)) {
      slot.held--;
      throw new Error(m.ok ? 'a document worker answered out of turn' : m.error);
    }
    const { original, ...rest } = m.prepared;
    const packed = original === null ? null : Buffer.from(original.buffer, original.byteOffset, original.byteLength);
    return { ...rest, original: packed, ticket, worker: index };
  }

  /** Renders and writes the prepared document; a file-system refusal comes back as a SaveFailure. */
  async save(doc: PreparedTicket, req: SaveRequest): Promise<SaveFailure | null> {
    const slot = this.slots[doc.worker]!;
    slot.held--;
    return this.failureOf(await this.ask(slot, { op: 'save', ticket: doc.ticket, req }));
  }

  /** Writes a file of the mirror as it is, in the least busy worker. */
  async write(localPath: string, data: Uint8Array): Promise<SaveFailure | null> {
    const copy = new Uint8Array(data);
    const slot = this.slots[this.leastBusy()]!;
    return this.failureOf(await this.ask(slot, { op: 'write', ticket: this.nextTicket++, localPath, data: copy }, [copy.buffer]));
  }

  /**
   * The text of a PDF or plain-text file for the search index, read in the least busy worker; with
   * `index`, the worker files it there and this resolves to null.
   */
  async fileText(kind: TextFileKind, data: Uint8Array, contentType: string | null, index?: TextPlace): Promise<PackedText | null> {
    const copy = new Uint8Array(data);
    const slot = this.slots[this.leastBusy()]!;
    const m = await this.ask(slot, { op: 'fileText', ticket: this.nextTicket++, kind, data: copy, contentType, ...(index && { index }) }, [copy.buffer]);
    if (!m.ok) throw new Error(m.error);
    if (!('text' in m)) throw new Error('a document worker answered out of turn');
    return m.text;
  }

  /** Commits the texts every worker has filed in the index; `release` closes their connections to it too. */
  async flushText(release = false): Promise<void> {
    const replies = await Promise.all(this.slots.map((s) => this.ask(s, { op: 'flushText', ticket: this.nextTicket++, release })));
    for (const m of replies) if (!m.ok) throw new Error(m.error);
  }

  /** Compacts the crawl's finished search index (TextIndex.compact) in a worker, off the crawl's thread. */
  async compactTextIndex(file: string): Promise<void> {
    const m = await this.ask(this.slots[this.leastBusy()]!, { op: 'compactTextIndex', ticket: this.nextTicket++, file });
    if (!m.ok) throw new Error(m.error);
  }

  private failureOf(m: DocumentReply): SaveFailure | null {
    if (!m.ok) throw new Error(m.error);
    if (!('failure' in m)) throw new Error('a document worker answered out of turn');
    return m.failure;
  }

  /** Lets the worker forget a document that won't be saved. */
  discard(doc: PreparedTicket): void {
    const slot = this.slots[doc.worker]!;
    slot.held--;
    if (slot.gone === null) slot.worker.postMessage({ op: 'discard', ticket: doc.ticket } satisfies ToDocumentWorker);
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  /** The worker with the least work, or a new one when every worker has a request in hand and there is room. */
  private leastBusy(): number {
    let best = 0;
    for (let i = 1; i < this.slots.length; i++) {
      const a = this.slots[i]!;
      const b = this.slots[best]!;
      if (a.pending.size + a.held < b.pending.size + b.held) best = i;
    }
    if (this.slots.length < this.size && this.slots.every((s) => s.pending.size > 0)) {
      this.slots.push(this.start(this.data));
      return this.slots.length - 1;
    }
    return best;
  }

  private ask(slot: Slot, message: ToDocumentWorker, transfer: ArrayBuffer[] = []): Promise<DocumentReply> {
    if (slot.gone !== null) return Promise.reject(slot.gone);
    return new Promise((resolve, reject) => {
      slot.pending.set(message.ticket, { resolve, reject });
      slot.worker.postMessage(message, transfer);
    });
  }
}
