import path from 'node:path';
import { HARVEST_VERSION, parseJob } from '../../shared/job.js';
import { isCommandName, parseArgs, type CommandName, type CommandResults, type ParsedArgs, type Reply } from '../../shared/contract.js';
import { type AppInfo, type ScriptsSetting } from '../../shared/appViews.js';
import type { ExportFormat } from '../../shared/metadata.js';
import { MIRROR_DIR } from '../engine/store/archive.js';
import { archiveReport, searchArchives } from './archiveText.js';
import type { ClusterWatch } from './clusterWatch.js';
import type { ExportManager } from './exportManager.js';
import { HostError } from './hostError.js';
import type { ImportManager } from './importManager.js';
import type { JobService } from './jobService.js';
import type { ViewerScripts } from './viewerScripts.js';
import type { QaManager } from './qaManager.js';

/** What differs between hosts: native dialogs and the desktop shell exist only in Electron. */
export interface HostShell {
  host: AppInfo['host'];
  viewerBase: string;
  chooseFolder(title: string | undefined): Promise<string | null>;
  chooseExportPath(suggested: { archiveDir: string; format: ExportFormat }): Promise<string | null>;
  /** WARC and WACZ files to import; null when cancelled. */
  chooseImportFiles(): Promise<string[] | null>;
  /** Shows the folder in the file manager (no-op on the web host). */
  revealFolder(dir: string): Promise<void>;
  /** Opens a file with the system's default application (no-op on the web host). */
  openFile(file: string): Promise<void>;
  /**
   * The mirror path the viewer's frame of this job shows, as the host saw it navigate there (never as
   * the page says); `token` is the one the frame's document reported, where the host issues them.
   */
  frameLocation(jobId: string, token: string | undefined): string | null;
  /** Where archived pages' own scripts are a per-archive choice (the web host); elsewhere they always run. */
  scripts?: ViewerScripts;
}

/** Hosts without a screen of their own: every dialog answers null, reveal and open only name the path. */
export const WEB_SHELL_ACTIONS: Omit<HostShell, 'host' | 'viewerBase'> = {
  chooseFolder: async () => null,
  chooseExportPath: async () => null,
  chooseImportFiles: async () => null,
  revealFolder: async () => {},
  openFile: async () => {},
  frameLocation: () => null,
};

/** Failure reasons a job's summary lists. */
const TOP_FAILURES = 5;

type Handlers = { [C in CommandName]: (args: ParsedArgs<C>) => Promise<CommandResults[C]> | CommandResults[C] };

export type CommandHandler = (name: string, rawArgs: unknown) => Promise<Reply<unknown>>;

/** The one entry point of every command, whichever host carries it: validates, runs, and answers a Reply. */
export function createCommandHandler(jobs: JobService, exports: ExportManager, clusters: ClusterWatch, shell: HostShell, qa: QaManager, imports: ImportManager): CommandHandler {
  const defaults = (() => {
    const { seeds: _seeds, ...rest } = parseJob({ seeds: ['https://example.org/'] });
    return rest;
  })();
  const handlers: Handlers = {
    'app.info': () => ({
      version: HARVEST_VERSION,
      dataDir: jobs.dataDir,
      defaults: { ...defaults, contactUrl: jobs.settings.contact },
      host: shell.host,
      viewerBase: shell.viewerBase,
    }),
    'settings.get': () => jobs.settings,
    'settings.set': (a) => jobs.saveSettings(a.settings),
    'app.ping': (a) => ({ sentAtMs: a.sentAtMs }),
    'jobs.list': () => jobs.list(),
    'jobs.create': (a) => jobs.create(a.job, a.archiveDir),
    'jobs.update': (a) => jobs.update(a.id, a.job),
    'jobs.duplicate': (a) => jobs.duplicate(a.id),
    'jobs.delete': (a) => {
      const report = jobs.delete(a.id, a.deleteArchive);
      // The archive opened again later is a new job, whose scripts start off.
      if (shell.scripts?.allowed(a.id)) shell.scripts.set(a.id, false);
      return report;
    },
    'jobs.start': (a) => jobs.start(a.id),
    'jobs.pause': (a) => jobs.pause(a.id),
    'jobs.control': (a) => jobs.control(a.id, a.control),
    'jobs.resume': (a) => jobs.resume(a.id),
    'jobs.cancel': (a) => jobs.cancel(a.id),
    'jobs.stats': (a) => jobs.query(a.id, { kind: 'stats' }),
    'jobs.urls': (a) => jobs.query(a.id, { kind: 'urls', offset: a.offset, limit: a.limit, state: a.state, skipReason: a.skipReason, search: a.search }),
    'archives.list': () => jobs.archives(),
    'archives.pages': (a) => jobs.query(a.id, { kind: 'pages', offset: a.offset, limit: a.limit, search: a.search }),
    'archives.lookup': (a) => jobs.query(a.id, { kind: 'lookup', localPath: a.localPath }),
    'archives.reveal': async (a) => {
      const dir = jobs.get(a.id).archiveDir;
      await shell.revealFolder(dir);
      return { path: dir };
    },
    'archives.open': (a) => jobs.importArchive(a.archiveDir),
    'archives.frameLocation': (a) => ({ localPath: shell.frameLocation(jobs.get(a.id).id, a.token) }),
    'archives.scripts': (a) => scriptsSetting(shell, jobs.get(a.id).id),
    'archives.setScripts': (a) => {
      const id = jobs.get(a.id).id;
      if (!shell.scripts) throw new HostError('unsupported', 'archived pages always run their scripts in the desktop app, where WebRTC is blocked');
      shell.scripts.set(id, a.allowed);
      return scriptsSetting(shell, id);
    },
    'archives.openInBrowser': async (a) => {
      const file = path.join(jobs.get(a.id).archiveDir, MIRROR_DIR, 'index.html');
      await shell.openFile(file);
      return { path: file };
    },
    'dialog.chooseFolder': async (a) => ({ path: await shell.chooseFolder(a.title) }),
    'dialog.chooseExportPath': async (a) => ({ path: await shell.chooseExportPath({ archiveDir: jobs.get(a.id).archiveDir, format: a.format }) }),
    'archives.getMetadata': (a) => jobs.query(a.id, { kind: 'getMetadata' }),
    'archives.setMetadata': (a) => jobs.query(a.id, { kind: 'setMetadata', metadata: a.metadata }),
    'archives.suggestMetadata': (a) => jobs.query(a.id, { kind: 'suggestMetadata' }),
    'archives.export': (a) => exports.start(a),
    'exports.cancel': (a) => exports.cancel(a.exportId),
    'jobs.recrawl': (a) => jobs.recrawl(a.id),
    'jobs.setSchedule': (a) => jobs.setSchedule(a.id, a.schedule),
    'archives.captures': (a) => jobs.query(a.id, { kind: 'captures' }),
    'archives.extracted': (a) => jobs.query(a.id, { kind: 'extracted', limit: a.limit }),
    'archives.focusReport': (a) => jobs.query(a.id, { kind: 'focusReport' }),
    'archives.markNotDuplicate': async (a) => {
      const done = await jobs.query(a.id, { kind: 'markNotDuplicate', url: a.url, notDuplicate: a.notDuplicate });
      if (done === null) throw new HostError('not-found', a.notDuplicate ? `${a.url} is not a page flagged as a near-duplicate in this archive` : `${a.url} is not marked as no near-duplicate`);
      return done;
    },
    'archives.changes': (a) => jobs.query(a.id, { kind: 'changes', capture: a.capture, since: a.since, offset: a.offset, limit: a.limit }),
    'archives.urlCaptures': async (a) =>
      (await jobs.query(a.id, { kind: 'urlCaptures', url: a.url })).map((c) => ({
        capture: c.capture,
        outcome: c.outcome,
        httpStatus: c.httpStatus,
        contentType: c.contentType,
        fetchedAt: c.fetchedAt,
        readable: c.record !== null,
      })),
    'archives.captureContent': (a) => jobs.captureContent(a.id, a.url, a.capture),
    'jobs.urlDetail': (a) => jobs.urlDetail(a.id, a.url),
    'jobs.report': (a) => jobs.query(a.id, { kind: 'report', failures: TOP_FAILURES }),
    'jobs.progress': (a) => jobs.progress(a.id),
    'exports.list': (a) => exports.list(a.id),
    'exports.verify': (a) => exports.verify(a.exportId),
    'archives.search': (a) => searchArchives(jobs, a),
    'archives.report': (a) => archiveReport(jobs, a.id),
    'clusters.attach': (a) => clusters.attach(a.url),
    'clusters.list': () => clusters.list(),
    'clusters.control': (a) => clusters.control(a.id, a.control),
    'clusters.detach': (a) => clusters.detach(a.id),
    'qa.start': (a) => qa.start(a.id, { limit: a.limit, fresh: a.fresh }),
    'qa.patch': (a) => qa.patch(a.id),
    'qa.pause': (a) => qa.pause(a.id),
    'qa.status': (a) => qa.status(a.id),
    'qa.results': (a) => qa.results(a.id, a.offset, a.limit, a.capture),
    'qa.page': (a) => qa.page(a.id, a.url, a.capture),
    'archives.import': (a) => imports.start(a),
    'archives.importPause': async (a) => imports.pause(a.importId),
    'archives.importResume': async (a) => imports.resume(a.importId),
    'dialog.chooseImportFiles': async () => ({ paths: await shell.chooseImportFiles() }),
  };

  return async (name, rawArgs) => {
    if (!isCommandName(name)) return { ok: false, error: { code: 'invalid-args', message: `unknown command '${String(name).slice(0, 100)}'` } };
    const parsed = parseArgs(name, rawArgs);
    if (!parsed.ok) return parsed;
    try {
      const run = handlers[name] as (args: unknown) => Promise<unknown> | unknown;
      return { ok: true, value: await run(parsed.value) };
    } catch (e) {
      if (e instanceof HostError) return { ok: false, error: { code: e.code, message: e.message, ...(e.issues && { issues: e.issues }) } };
      return { ok: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } };
    }
  };
}

function scriptsSetting(shell: HostShell, jobId: string): ScriptsSetting {
  return shell.scripts ? { allowed: shell.scripts.allowed(jobId), switchable: true } : { allowed: true, switchable: false };
}
