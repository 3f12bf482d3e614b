import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WarcExchange } from '../../../electron/engine/warc/types.js';

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'harvest-warc-'));
}

/** The WARC files in a directory, finished or not (not the .cut- files a repair leaves), sorted by name. */
export function warcFiles(dir: string): string[] {
  return readdirSync(dir).filter((f) => /\.warc\.gz(\.open)?$/.test(f)).sort();
}

/** Bytes that gzip cannot shrink, the same every run. */
export function noise(seed: string, length: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; parts.length * 32 < length; i++) parts.push(createHash('sha256').update(`${seed}/${i}`).digest());
  return Buffer.concat(parts).subarray(0, length);
}

/** A 200 text/html exchange for `url`, overridable piece by piece. */
export function exchange(url: string, overrides: Partial<WarcExchange> = {}): WarcExchange {
  const u = new URL(url);
  return {
    url,
    date: new Date('2024-05-01T12:34:56.789Z'),
    ip: '127.0.0.1',
    httpVersion: '1.1',
    status: 200,
    statusText: 'OK',
    responseHeaders: [['Content-Type', 'text/html']],
    payload: Buffer.from(`<p>${url}</p>`),
    requestHeaders: [
      ['host', u.host],
      ['User-Agent', 'Harvest/0.1'],
    ],
    path: u.pathname + u.search,
    ...overrides,
  };
}
