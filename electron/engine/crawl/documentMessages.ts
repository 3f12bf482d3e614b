import type { TextFileKind } from '../parse/fileText.js';
import type { PackedText } from '../store/packedText.js';
import type { TextPlace } from '../store/textIndex.js';
import type { Template } from '../../../shared/template.js';
import type { PreparedDocument, PrepareRequest, SaveFailure, SaveRequest } from './documentWork.js';
import type { LinkColumns } from './linkColumns.js';

/** What a document worker is started with: where the mirror and its temporary files are. */
export interface DocumentWorkerData {
  mirrorRoot: string;
  tmpDir: string;
  /** A focused crawl's template: pages asked for are scored against it. */
  template?: Template | null;
  /** The search index the workers file the texts they keep in (a crawl's); absent, they keep none. */
  textIndexFile?: string;
  /** Shared by the pool's slots, so they make files one at a time (see createGate.ts). */
  createGate?: Int32Array;
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

/** A reply as a worker thread posts it: a prepared document's links by column (linkColumns.ts). */
export type PostedReply =
  | Exclude<DocumentReply, { prepared: unknown }>
  | { ticket: number; ok: true; prepared: Omit<PreparedDocument, 'original' | 'links'> & { original: Uint8Array | null; links: LinkColumns } };

/** The first message says the worker has loaded; every other answers a request. */
export type FromDocumentWorker = { ready: true } | PostedReply;
