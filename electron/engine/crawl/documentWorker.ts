import { parentPort, workerData } from 'node:worker_threads';
import type { DocumentReply, DocumentWorkerData, FromDocumentWorker, ToDocumentWorker } from './documentMessages.js';
import { answer, openDocumentWork } from './documentService.js';
import { linksToColumns } from './linkColumns.js';

const work = await openDocumentWork(workerData as DocumentWorkerData);
const port = parentPort!;

port.postMessage({ ready: true } satisfies FromDocumentWorker);

function send(reply: DocumentReply): void {
  if (!('prepared' in reply)) {
    port.postMessage(reply satisfies FromDocumentWorker);
    return;
  }
  const links = linksToColumns(reply.prepared.links);
  if (reply.prepared.original === null) {
    port.postMessage({ ...reply, prepared: { ...reply.prepared, links } } satisfies FromDocumentWorker);
    return;
  }
  // A copy of its own, so handing it over can't detach a buffer pool other Buffers share.
  const original = new Uint8Array(reply.prepared.original);
  port.postMessage({ ...reply, prepared: { ...reply.prepared, links, original } } satisfies FromDocumentWorker, [original.buffer]);
}

port.on('message', (m: ToDocumentWorker) => {
  const reply = answer(work, m);
  if (reply instanceof Promise) void reply.then(send);
  else if (reply !== null) send(reply);
});
