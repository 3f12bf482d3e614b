import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { FetchSettingsSchema } from '../../../shared/job.js';
import { FetchError, type FetchErrorCode } from '../../../electron/engine/fetch/errors.js';
import type { FetcherOptions } from '../../../electron/engine/fetch/fetcher.js';

/** A local server the tests can point a Fetcher at, with counts of what it saw. */
export interface TestServer {
  url: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Most connections open at one time. */
  peakConnections: number;
  /** Connections still open now. */
  openConnections: number;
  /** Requests received (raw servers count connections' first data). */
  requests: number;
  close(): Promise<void>;
}

/** Settings as the job defaults have them, with the test's overrides; retries are fast unless a test says otherwise. */
export function fetcherOptions(overrides: Partial<FetcherOptions> = {}): FetcherOptions {
  return {
    ...FetchSettingsSchema.parse({}),
    userAgent: 'HarvestTest/1.0 (+http://example.invalid/)',
    connectionsPerOrigin: 2,
    backoffBaseMs: 10,
    ...overrides,
  };
}

function track(server: net.Server, stats: TestServer): Set<net.Socket> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    stats.connections++;
    stats.openConnections++;
    stats.peakConnections = Math.max(stats.peakConnections, stats.openConnections);
    socket.on('close', () => {
      sockets.delete(socket);
      stats.openConnections--;
    });
  });
  return sockets;
}

async function listen(server: net.Server, stats: TestServer, sockets: Set<net.Socket>): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  stats.url = `http://127.0.0.1:${port}`;
  stats.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return stats;
}

function emptyStats(): TestServer {
  return {
    url: '',
    connections: 0,
    peakConnections: 0,
    openConnections: 0,
    requests: 0,
    close: async () => {},
  };
}

/** An HTTP server; `handle` gets the 1-based request number. */
export async function startHttpServer(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, requestNumber: number) => void,
): Promise<TestServer> {
  const stats = emptyStats();
  const server = http.createServer((req, res) => {
    stats.requests++;
    handle(req, res, stats.requests);
  });
  // Generous, so the server never closes a kept-alive connection during a test.
  server.keepAliveTimeout = 30_000;
  const sockets = track(server, stats);
  return listen(server, stats, sockets);
}

/** A TCP server speaking whatever `handle` writes; `handle` gets the 1-based request number. */
export async function startRawServer(
  handle: (socket: net.Socket, requestNumber: number) => void,
): Promise<TestServer> {
  const stats = emptyStats();
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      stats.requests++;
      handle(socket, stats.requests);
    });
    socket.on('error', () => {}); // resets are what these servers are for
  });
  const sockets = track(server, stats);
  return listen(server, stats, sockets);
}

/** A port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * About 1 KiB of gzip per MiB of zeros, one gzip member each, concatenated: a valid gzip stream
 * (RFC 1952 allows several members) that decodes to `mebibytes` MiB.
 */
export function gzipBomb(mebibytes: number): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: mebibytes }, () => member));
}

/** A brotli stream of `mebibytes` MiB of zeros; 1 GiB comes out under 2 KiB. */
export async function brotliBomb(mebibytes: number): Promise<Buffer> {
  const encoder = zlib.createBrotliCompress({
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
  });
  const chunks: Buffer[] = [];
  encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    encoder.on('end', resolve);
    encoder.on('error', reject);
  });
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < mebibytes; i++) {
    if (!encoder.write(zeros)) await new Promise((resolve) => encoder.once('drain', resolve));
  }
  encoder.end();
  await ended;
  return Buffer.concat(chunks);
}

/** For assert.rejects: the error is a FetchError with this code. */
export function isFetchError(code: FetchErrorCode): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof FetchError, `expected a FetchError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return true;
  };
}
