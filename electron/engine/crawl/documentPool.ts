import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { TextFileKind } from '../parse/fileText.js';
import type { PackedText } from '../store/packedText.js';
import type { TextPlace } from '../store/textIndex.js';
import type { DocumentReply, DocumentWorkerData, FromDocumentWorker, ToDocumentWorker } from './documentMessages.js';
import type { PreparedDocument, PrepareRequest, SaveFailure, SaveRequest } from './documentWork.js';
import { newCreateGate } from '../store/createGate.js';
import { linksFromColumns } from './linkColumns.js';
import { WholeFiles } from './wholeFiles.js';

/** A document parsed in one of the pool's slots, which keeps it until it is saved or discarded. */
export interface PreparedTicket extends PreparedDocument {
  readonly ticket: number;
  /** The slot: 0 is the pool's own thread, unless the crawl is a focused one (see DocumentPool); WHOLE: held by the pool (see WholeFiles). */
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

/**
 * The largest body the pool's own thread takes on (see DocumentPool). A page costs some 0.1 ms of
 * CPU per KB to parse and save (the Python manual's two 2.1 MB pages: 410 ms), so this holds the
 * crawl's loop for some 25 ms at most.
 */
const INLINE_MAX_BYTES = 256 * 1024;

/**
 * How long the pool's own thread works on requests before a worker starts, however they come. Its
 * work never yields to the event loop, so a crawl's responses can't overlap there: without a bound,
 * the Python and PostgreSQL manuals' crawl worked its first second of pages on the crawl loop's
 * thread (wall 9.73-10.10 -> 9.79-10.79 s). A page with its stylesheets and images takes some 5-15 ms.
 */
const OWN_THREAD_MS = 50;

/** The `worker` of a document the pool holds itself, too large to parse (see WholeFiles). */
const WHOLE = -1;

interface Pending {
  resolve: (m: DocumentReply) => void;
  reject: (e: Error) => void;
}

/** Where documents are worked on: a worker thread, or the pool's own thread (`worker` null). */
interface Slot {
  worker: Worker | null;
  send: (message: ToDocumentWorker, transfer: ArrayBuffer[]) => void;
  /** Settles once the slot has loaded its modules, or has failed to. */
  ready: Promise<void>;
  pending: Map<number, Pending>;
  /** Documents prepared here and not yet saved or discarded. */
  held: number;
  gone: Error | null;
  /** Fails `ready` (and marks the slot gone: see end). */
  fail: (e: Error) => void;
  /** Lets go of the slot: a worker is terminated; the pool's own thread commits the texts it holds. */
  stop: () => Promise<void>;
}

/**
 * Parses, renders and saves documents, and writes the other files, for one crawl. The first are
 * worked on the pool's own thread, for its first 50 ms of such work, as long as they come one at a
 * time and are small: a crawl of a page and its requisites then starts no thread (a worker holds
 * some 17 MB). The next, or an overlapping or large one, starts a worker, and from then on workers
 * take every new request, up to one per core, the next one started while every worker has a
 * request in hand.
 */
export class DocumentPool {
  private readonly slots: Slot[];
  private readonly whole: WholeFiles;
  private nextTicket = 1;
  /** Time the pool's own thread has spent on requests. */
  private ownMs = 0;
  /** What each slot is started with: the caller's, and the gate its files are made through. */
  private readonly data: DocumentWorkerData;

  constructor(
    given: DocumentWorkerData,
    private readonly size = defaultDocumentWorkers(),
    /** The own thread's budget (tests that check which slot worked widen it: a loaded machine takes longer than 50 ms). */
    private readonly ownThreadMs = OWN_THREAD_MS,
  ) {
    // A focused crawl's document work loads cheerio (0.2 s, some 17 MB a thread): its first worker
    // starts at once, and the crawl's own thread takes none of it.
    const data = (this.data = { ...given, createGate: newCreateGate() });
    this.slots = [data.template ? this.startWorker(data) : this.ownThread(data)];
    this.whole = new WholeFiles(data.mirrorRoot, data.tmpDir);
  }

  /** Worker threads started so far. */
  get threads(): number {
    return this.slots.filter((s) => s.worker !== null).length;
  }

  private ownThread(data: DocumentWorkerData): Slot {
    // Loaded once the pool is made: the crawl's first requests go out meanwhile.
    const opening = import('./documentService.js').then(async (service) => ({ service, work: await service.openDocumentWork(data) }));
    // Answered one after another, as a worker takes its messages.
    let queue = Promise.resolve();
    const slot = this.slot(
      null,
      opening.then(() => {}),
      (message) => {
        queue = queue.then(async () => {
          // Had it failed to open, every request to it has failed with that (end).
          const opened = await opening.catch(() => null);
          if (opened === null) return;
          const started = performance.now();
          const reply = opened.service.answer(opened.work, message);
          this.ownMs += performance.now() - started;
          if (reply instanceof Promise) void reply.then((r) => this.deliver(slot, r));
          else if (reply !== null) this.deliver(slot, reply);
        });
      },
      async () => {
        const opened = await opening.catch(() => null);
        // What a terminated worker would lose is committed instead: the crawl's thread goes on.
        await opened?.work.flushText(true).catch(() => {});
      },
    );
    return slot;
  }

  private startWorker(data: DocumentWorkerData): Slot {
    const worker = new Worker(new URL('./documentWorker.js', import.meta.url), { workerData: data, resourceLimits: WORKER_HEAP });
    let loaded: () => void = () => {};
    const slot = this.slot(
      worker,
      new Promise((resolve) => (loaded = resolve)),
      (message, transfer) => worker.postMessage(message, transfer),
      () => worker.terminate().then(() => {}),
    );
    worker.on('message', (m: FromDocumentWorker) => {
      if ('ready' in m) loaded();
      else this.deliver(slot, 'prepared' in m ? { ...m, prepared: { ...m.prepared, links: linksFromColumns(m.prepared.links) } } : m);
    });
    worker.on('error', (e) => this.end(slot, e));
    worker.on('exit', (code) => this.end(slot, new Error(`a document worker stopped (exit code ${code})`)));
    return slot;
  }

  private slot(worker: Worker | null, loading: Promise<void>, send: Slot['send'], stop: Slot['stop']): Slot {
    let fail: (e: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      fail = reject;
      loading.then(resolve, (e: unknown) => this.end(slot, e instanceof Error ? e : new Error(String(e))));
    });
    const slot: Slot = { worker, send, stop, ready, fail: (e) => fail(e), pending: new Map(), held: 0, gone: null };
    // Nobody may be waiting on it yet: its failure still reaches every later call through `gone`.
    ready.catch(() => {});
    return slot;
  }

  private end(slot: Slot, e: Error): void {
    slot.gone ??= e;
    slot.fail(slot.gone);
    for (const p of slot.pending.values()) p.reject(slot.gone);
    slot.pending.clear();
  }

  private deliver(slot: Slot, m: DocumentReply): void {
    const p = slot.pending.get(m.ticket);
    slot.pending.delete(m.ticket);
    p?.resolve(m);
  }

  /**
   * Resolves once the slots started so far have loaded: starting one costs the process some CPU,
   * which is better spent before a crawl begins reporting progress than in its first second.
   */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** Parses a document in the least busy slot, which keeps it for save() or discard(). */
  async prepare(req: PrepareRequest): Promise<PreparedTicket> {
    if (WholeFiles.prepares(req)) {
      const ticket = this.nextTicket++;
      const prepared = await this.whole.prepare(ticket, req);
      return { ...prepared, ticket, worker: WHOLE };
    }
    const index = this.leastBusy(req.body.byteLength);
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
    if (doc.worker === WHOLE) return this.whole.save(doc.ticket, req.localPath);
    const slot = this.slots[doc.worker]!;
    slot.held--;
    return this.failureOf(await this.ask(slot, { op: 'save', ticket: doc.ticket, req }));
  }

  /** Writes a file of the mirror as it is, in the least busy slot. */
  async write(localPath: string, data: Uint8Array): Promise<SaveFailure | null> {
    if (WholeFiles.writes(data)) return this.whole.write(localPath, data);
    const copy = new Uint8Array(data);
    const slot = this.slots[this.leastBusy(copy.byteLength)]!;
    return this.failureOf(await this.ask(slot, { op: 'write', ticket: this.nextTicket++, localPath, data: copy }, [copy.buffer]));
  }

  /**
   * The text of a PDF or plain-text file for the search index, read in the least busy worker; with
   * `index`, the worker files it there and this resolves to null.
   */
  async fileText(kind: TextFileKind, data: Uint8Array, contentType: string | null, index?: TextPlace): Promise<PackedText | null> {
    const copy = new Uint8Array(data);
    // Never on the pool's own thread: reading a PDF loads its parser and can take seconds.
    const slot = this.slots[this.leastBusy(Infinity)]!;
    const m = await this.ask(slot, { op: 'fileText', ticket: this.nextTicket++, kind, data: copy, contentType, ...(index && { index }) }, [copy.buffer]);
    if (!m.ok) throw new Error(m.error);
    if (!('text' in m)) throw new Error('a document worker answered out of turn');
    return m.text;
  }

  /** Commits the texts every slot has filed in the index; `release` closes their connections to it too. */
  async flushText(release = false): Promise<void> {
    const replies = await Promise.all(this.slots.map((s) => this.ask(s, { op: 'flushText', ticket: this.nextTicket++, release })));
    for (const m of replies) if (!m.ok) throw new Error(m.error);
  }

  /**
   * Compacts the crawl's finished search index (TextIndex.compact) off the crawl's thread, in a
   * worker; on the pool's own thread when the crawl needed none (its index is small).
   */
  async compactTextIndex(file: string): Promise<void> {
    const m = await this.ask(this.slots[this.leastBusy(0)]!, { op: 'compactTextIndex', ticket: this.nextTicket++, file });
    if (!m.ok) throw new Error(m.error);
  }

  private failureOf(m: DocumentReply): SaveFailure | null {
    if (!m.ok) throw new Error(m.error);
    if (!('failure' in m)) throw new Error('a document worker answered out of turn');
    return m.failure;
  }

  /** Lets the slot forget a document that won't be saved. */
  discard(doc: PreparedTicket): void {
    if (doc.worker === WHOLE) {
      this.whole.discard(doc.ticket);
      return;
    }
    const slot = this.slots[doc.worker]!;
    slot.held--;
    if (slot.gone === null) slot.send({ op: 'discard', ticket: doc.ticket }, []);
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.stop()));
  }

  /**
   * Where the next request of `bytes` goes: the pool's own thread (if it has one) while no worker
   * has started, it is free, the request small and its time not spent; otherwise the worker with the least work,
   * or a new one when every worker has a request in hand and there is room.
   */
  private leastBusy(bytes: number): number {
    const own = this.slots[0]!;
    const first = own.worker === null ? 1 : 0;
    if (first === this.slots.length) {
      if (bytes <= INLINE_MAX_BYTES && own.pending.size + own.held === 0 && this.ownMs < this.ownThreadMs) return 0;
      this.slots.push(this.startWorker(this.data));
      return 1;
    }
    let best = first;
    for (let i = first + 1; i < this.slots.length; i++) {
      const a = this.slots[i]!;
      const b = this.slots[best]!;
      if (a.pending.size + a.held < b.pending.size + b.held) best = i;
    }
    if (this.threads < this.size && this.slots.slice(first).every((s) => s.pending.size > 0)) {
      this.slots.push(this.startWorker(this.data));
      return this.slots.length - 1;
    }
    return best;
  }

  private ask(slot: Slot, message: ToDocumentWorker, transfer: ArrayBuffer[] = []): Promise<DocumentReply> {
    if (slot.gone !== null) return Promise.reject(slot.gone);
    return new Promise((resolve, reject) => {
      slot.pending.set(message.ticket, { resolve, reject });
      slot.send(message, transfer);
    });
  }
}
