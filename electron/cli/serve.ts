import { parseArgs } from 'node:util';
import { defaultDataDir } from '../host/dataDir.js';
import { EXPORTERS } from '../engine/export/exporters.js';
import { HostError } from '../host/hostError.js';
import { startWebHost, type WebHost } from '../host/webHost.js';
import { UsageError } from './usage.js';
import { onInterrupt } from './interrupts.js';

/** `harvest serve`: runs the web host until Ctrl-C or SIGTERM, which pause running crawls first. */
export async function serve(argv: string[]): Promise<number> {
  let values: { port?: string; 'viewer-port'?: string; 'data-dir'?: string; open?: string[] };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, 'viewer-port': { type: 'string' }, 'data-dir': { type: 'string' }, open: { type: 'string', multiple: true } },
      strict: true,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message, 'serve');
  }
  const port = portOption('--port', values.port);
  const viewerPort = portOption('--viewer-port', values['viewer-port']);
  if (port !== 0 && port === viewerPort) throw new UsageError('--port and --viewer-port need two different ports', 'serve');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const host = await startWebHost({ dataDir, port, viewerPort, exporters: EXPORTERS });
  try {
    for (const dir of values.open ?? []) process.stdout.write(`${addToLibrary(host, dir)}\n`);
  } catch (e) {
    await host.close();
    throw e;
  }
  process.stdout.write(`harvest serve: open ${host.url}\narchived pages: port ${host.viewerPort}, each archive as <archive-id>.localhost\ndata folder: ${dataDir}\n`);
  await new Promise<void>((resolve) => {
    const stopListening = onInterrupt(() => {
      stopListening();
      process.stderr.write('harvest serve: pausing running crawls and closing\n');
      resolve();
    });
  });
  await host.close();
  return 0;
}

/** `--open <archive-dir>`: adds an archive folder on disk to the library; one already there is left as it is. */
function addToLibrary(host: WebHost, dir: string): string {
  try {
    const job = host.engine.jobs.importArchive(dir);
    return `library: added ${job.archiveDir} ('${job.job.name}')`;
  } catch (e) {
    if (e instanceof HostError && e.code === 'conflict') return `library: ${e.message}`;
    throw new UsageError(`--open ${dir}: ${(e as Error).message}`);
  }
}

/** A port number option; 0 (any free port) when not given. */
function portOption(name: string, value: string | undefined): number {
  const port = value === undefined ? 0 : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`${name} needs a port number, got '${value}'`, 'serve');
  return port;
}
