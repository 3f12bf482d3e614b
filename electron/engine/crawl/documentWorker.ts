import { parentPort, workerData } from 'node:worker_threads';
import { Mirror } from '../store/mirror.js';
import { DocumentWork } from './documentWork.js';
import { TextWriter } from './textWriter.js';
import type { DocumentReply, DocumentWorkerData, FromDocumentWorker, ToDocumentWorker } from './documentPool.js';

const data = workerData as DocumentWorkerData;
// Field extraction loads cheerio (0.2 s, some 17 MB per worker): only a focused crawl's workers do.
const analyzer = data.template ? new (await import('../focus/pageAnalysis.js')).PageAnalyzer(data.template) : null;
const work = new DocumentWork(new Mirror(data.mirrorRoot, data.tmpDir), analyzer, data.textIndexFile ? new TextWriter(data.textIndexFile) : null);
const port = parentPort!;

port.postMessage({ ready: true } satisfies FromDocumentWorker);

const failed = (ticket: number, e: unknown): DocumentReply => ({ ticket, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });

port.on('message', (m: ToDocumentWorker) => {
  let reply: DocumentReply;
  try {
    switch (m.op) {
      case 'prepare': {
        const prepared = work.prepare(m.ticket, m.req);
        // A copy of its own, so handing it over can't detach a buffer pool other Buffers share.
        const original = prepared.original === null ? null : new Uint8Array(prepared.original);
        reply = { ticket: m.ticket, ok: true, prepared: { ...prepared, original } };
        port.postMessage(reply, original === null ? [] : [original.buffer]);
        return;
      }
      case 'save':
        reply = { ticket: m.ticket, ok: true, failure: work.save(m.ticket, m.req) };
        break;
      case 'write':
        reply = { ticket: m.ticket, ok: true, failure: work.write(m.localPath, m.data) };
        break;
      case 'fileText':
        // Reading a PDF is asynchronous: the answer goes out when it is done, other requests meanwhile.
        work.readFileText(m.kind, m.data, m.contentType, m.index).then(
          (text) => port.postMessage({ ticket: m.ticket, ok: true, text } satisfies DocumentReply),
          (e: unknown) => port.postMessage(failed(m.ticket, e)),
        );
        return;
      case 'flushText':
        work.flushText(m.release).then(
          () => port.postMessage({ ticket: m.ticket, ok: true, flushed: true } satisfies DocumentReply),
          (e: unknown) => port.postMessage(failed(m.ticket, e)),
        );
        return;
      case 'compactTextIndex':
        // Loaded here only: the index's module brings SQLite into the worker, which nothing else needs.
        import('../store/textIndex.js')
          .then(({ TextIndex }) => TextIndex.compact(m.file))
          .then(
            () => port.postMessage({ ticket: m.ticket, ok: true, compacted: true } satisfies DocumentReply),
            (e: unknown) => port.postMessage(failed(m.ticket, e)),
          );
        return;
      case 'discard':
        work.discard(m.ticket);
        return;
    }
  } catch (e) {
    work.discard(m.ticket);
    reply = failed(m.ticket, e);
  }
  port.postMessage(reply);
});
