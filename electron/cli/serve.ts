import { parseArgs } from 'node:util';
import { defaultDataDir } from '../host/dataDir.js';
import { EXPORTERS } from '../engine/export/exporters.js';
import { HostError } from '../host/hostError.js';
import { startWebHost, type WebHost } from '../host/webHost.js';
import { UsageError } from './usage.js';

/** `harvest serve`: runs the web host until Ctrl-C or SIGTERM, which pause running crawls first. */
export async function serve(argv: string[]): Promise<number> {
  let values: { port?: string; 'data-dir'?: string; open?: string[] };
  try {
    ({ values } = parseArgs({ args: argv, options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, open: { type: 'string', multiple: true } }, strict: true }));
  } catch (e) {
    throw new UsageError((e as Error).message, 'serve');
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs a port number, got '${values.port}'`, 'serve');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const host = await startWebHost({ dataDir, port, exporters: EXPORTERS });
  try {
    for (const dir of values.open ?? []) process.stdout.write(`${addToLibrary(host, dir)}\n`);
  } catch (e) {
    await host.close();
    throw e;
  }
  process.stdout.write(`harvest serve: open ${host.url}\ndata folder: ${dataDir}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write('harvest serve: pausing running crawls and closing\n');
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
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
