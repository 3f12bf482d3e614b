#!/usr/bin/env node
/**
 * Import benchmark: `harvest import` of a generated WARC of --gb gigabytes (a gzip member per record:
 * HTML pages of 50 hosts, a quarter of the bytes or so, and large incompressible files), in a temp
 * folder deleted afterwards. Wall time, CPU and peak RSS (`/usr/bin/time -v`), against the same at
 * a tenth of the size: memory must not grow with the file. Run as `npm run bench:import -- [--gb 2]`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { round, runMeasured } from './lib/measure.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/electron/bundle/harvest.js');
const BLOB_BYTES = 1024 * 1024;
const HOSTS = 50;

/** A response record (WARC/1.1, HTTP/1.1 200) of `body`. */
function record(url, date, contentType, body) {
  const http = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`), body]);
  const head = `WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:${randomUUID()}>\r\nWARC-Target-URI: ${url}\r\nWARC-Date: ${date}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${http.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), http, Buffer.from('\r\n\r\n')]);
}

/** Writes a WARC of about `bytes`: three pages to each 1 MB file, every page linking the next. */
function generate(file, bytes) {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let n = 0;
  const date = (i) => new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  while (written < bytes) {
    const host = `http://h${n % HOSTS}.bench.test`;
    for (let k = 0; k < 3; k++, n++) {
      const words = Array.from({ length: 400 }, (_, w) => `word${(n * 7 + w * 13) % 5000}`).join(' ');
      const html = `<!doctype html><html><head><title>Page ${n}</title></head><body><a href="${host}/p${n + 1}.html">next</a> <img src="${host}/f${n}.bin"><p>${words}</p></body></html>`;
      const member = gzipSync(record(`${host}/p${n}.html`, date(n), 'text/html', Buffer.from(html)));
      fs.writeSync(fd, member);
      written += member.length;
    }
    const blob = gzipSync(record(`${host}/f${n}.bin`, date(n), 'application/octet-stream', randomBytes(BLOB_BYTES)), { level: 1 });
    fs.writeSync(fd, blob);
    written += blob.length;
  }
  fs.closeSync(fd);
  return n;
}

async function importOnce(work, gb, log) {
  const input = path.join(work, `bench-${gb}gb.warc.gz`);
  const t = Date.now();
  const pages = generate(input, gb * 1024 ** 3);
  log(`generated ${input}: ${round(fs.statSync(input).size / 1024 ** 2, 0)} MB, ${pages} pages, in ${round((Date.now() - t) / 1000, 1)} s`);
  const out = path.join(work, `archive-${gb}`);
  const r = await runMeasured([process.execPath, CLI, 'import', input, '--out', out, '--quiet'], { dir: work, capSeconds: 3600 });
  fs.rmSync(input, { force: true });
  fs.rmSync(out, { recursive: true, force: true });
  if (r.exit !== 0) throw new Error(`harvest import exited with ${r.exit}: ${fs.readFileSync(path.join(work, 'output.txt'), 'utf8').slice(-500)}`);
  const result = { mb: round((gb * 1024 ** 3) / 1024 ** 2, 0), pages, wallSeconds: r.wallSeconds, cpuSeconds: r.cpuSeconds, peakRssMiB: r.maxRssMiB, load: `${r.loadavgBefore} -> ${r.loadavgAfter}` };
  log(JSON.stringify(result));
  return result;
}

export async function runImportBench({ gb = 2, log = console.log } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'harvest-bench-import-'));
  try {
    const small = await importOnce(work, gb / 10, log);
    const big = await importOnce(work, gb, log);
    log(`peak RSS ${small.peakRssMiB} MiB at ${small.mb} MB, ${big.peakRssMiB} MiB at ${big.mb} MB; ${round(big.mb / big.wallSeconds, 1)} MB/s`);
    return { small, big };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { gb: { type: 'string' } } });
  await runImportBench({ gb: values.gb === undefined ? 2 : Number(values.gb) });
}
