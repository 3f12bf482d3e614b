import type { DublinCore, ExportProgress } from '../../../shared/metadata.js';
import type { Archive } from '../store/archive.js';
import type { ManifestAlgorithm } from './hashing.js';

export interface ExportOptions {
  metadata: DublinCore;
  onProgress?: (p: ExportProgress) => void;
  signal?: AbortSignal;
  /** WACZ (and the WACZ in a bag): leave each page's text out of pages.jsonl. */
  noPageText?: boolean;
  /** BagIt only: put the browsable mirror in the payload beside the WACZ. */
  includeMirror?: boolean;
  /**
   * WACZ, WARC and BagIt: only this capture's records, with the earlier records its revisits refer
   * to; default every capture.
   */
  capture?: number;
  /** BagIt only: the manifests' checksum algorithms, each with its own manifest; default sha512. */
  bagAlgorithms?: readonly ManifestAlgorithm[];
}

export interface ExportResult {
  /** The file or folder written (atomically: it appears under this name only once complete). */
  path: string;
  bytes: number;
  files: number;
}

/**
 * Every export format is one function of this shape. It reads a closed or read-only archive, streams
 * (memory stays flat whatever the archive's size) and never leaves a partial file under `outPath`.
 */
export type Exporter = (archive: Archive, outPath: string, opts: ExportOptions) => Promise<ExportResult>;
