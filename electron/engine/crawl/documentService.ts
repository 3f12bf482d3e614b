import { Mirror } from '../store/mirror.js';
import type { DocumentReply, DocumentWorkerData, ToDocumentWorker } from './documentMessages.js';
import { DocumentWork } from './documentWork.js';
import { TextWriter } from './textWriter.js';

/**
 * The document work behind one slot of the pool (documentPool.ts), in a worker thread or on the
 * crawl's own thread: the same requests, answered the same way.
 */
export async function openDocumentWork(data: DocumentWorkerData): Promise<DocumentWork> {
  // Field extraction loads cheerio (0.2 s, some 17 MB per thread): only a focused crawl's slots do.
  const analyzer = data.template ? new (await import('../focus/pageAnalysis.js')).PageAnalyzer(data.template) : null;
  return new DocumentWork(new Mirror(data.mirrorRoot, data.tmpDir, data.createGate ?? null), analyzer, data.textIndexFile ? new TextWriter(data.textIndexFile) : null);
}

const failed = (ticket: number, e: unknown): DocumentReply => ({ ticket, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });

/**
 * Answers one request: at once, or later for the asynchronous ones (a PDF's text, a commit, the
 * index's compaction), other requests being answered meanwhile; a discard has no answer.
 */
export function answer(work: DocumentWork, m: ToDocumentWorker): DocumentReply | Promise<DocumentReply> | null {
  const later = (p: Promise<DocumentReply>) => p.catch((e: unknown) => failed(m.ticket, e));
  try {
    switch (m.op) {
      case 'prepare':
        return { ticket: m.ticket, ok: true, prepared: work.prepare(m.ticket, m.req) };
      case 'save':
        return { ticket: m.ticket, ok: true, failure: work.save(m.ticket, m.req) };
      case 'write':
        return { ticket: m.ticket, ok: true, failure: work.write(m.localPath, m.data) };
      case 'fileText':
        return later(work.readFileText(m.kind, m.data, m.contentType, m.index).then((text) => ({ ticket: m.ticket, ok: true, text })));
      case 'flushText':
        return later(work.flushText(m.release).then(() => ({ ticket: m.ticket, ok: true, flushed: true })));
      case 'compactTextIndex':
        // Loaded here only: the index's module brings SQLite into a worker, which nothing else there needs.
        return later(
          import('../store/textIndex.js')
            .then(({ TextIndex }) => TextIndex.compact(m.file))
            .then(() => ({ ticket: m.ticket, ok: true, compacted: true })),
        );
      case 'discard':
        work.discard(m.ticket);
        return null;
    }
  } catch (e) {
    work.discard(m.ticket);
    return failed(m.ticket, e);
  }
}
