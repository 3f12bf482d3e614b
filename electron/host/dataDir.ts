import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { JOB_STATUSES } from '../../shared/appViews.js';
import { AppSettingsSchema, type AppSettings } from '../../shared/job.js';
import { ScheduleSchema } from '../../shared/schedule.js';

const LOCK_FILE = 'harvest.lock';
const JOBS_FILE = 'jobs.json';
const SETTINGS_FILE = 'settings.json';

/** The OS's per-user application data folder for Harvest (Electron passes app.getPath('userData') instead). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'Harvest');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'Harvest');
  return path.join(env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share'), 'harvest');
}

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(`data folder ${dir} is in use by another Harvest process (pid ${pid})`);
    this.name = 'DataDirInUseError';
  }
}

/** A job's schedule and how far it has been dealt with (see scheduler.ts). */
export const ScheduleStateSchema = z.object({
  settings: ScheduleSchema,
  /** Every slot up to this instant (ISO 8601) has run or been skipped; set to the time a schedule is saved. */
  handledThrough: z.string(),
  lastRunAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type ScheduleState = z.infer<typeof ScheduleStateSchema>;

/** What the host remembers of a job between launches; settings live in the archive's catalogue too. */
export const JobRecordSchema = z.object({
  id: z.string(),
  job: z.record(z.string(), z.unknown()),
  archiveDir: z.string(),
  status: z.enum(JOB_STATUSES),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  bytesOnDisk: z.number().default(0),
  /** Not part of the capture's settings (those are the record of what was done): the host's plan to run it again. */
  schedule: ScheduleStateSchema.nullable().default(null),
});
export type JobRecord = z.infer<typeof JobRecordSchema>;

const JobsFileSchema = z.object({ version: z.literal(1), jobs: z.array(JobRecordSchema) });

/**
 * The host's data folder: jobs.json and settings.json (each written to a temporary name and renamed,
 * so a crash leaves the old or the new file, never half of one) and a lock file naming the owning
 * process.
 */
export class DataDir {
  private constructor(readonly dir: string) {}

  /** Takes the folder's lock; a lock left by a process that no longer runs is taken over. */
  static open(dir: string): DataDir {
    const abs = path.resolve(dir);
    mkdirSync(abs, { recursive: true });
    const lock = path.join(abs, LOCK_FILE);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(lock, 'wx');
        writeFileSync(fd, String(process.pid));
        closeSync(fd);
        return new DataDir(abs);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const pid = Number(readFileSync(lock, 'utf8').trim());
        if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new DataDirInUseError(abs, pid);
        rmSync(lock, { force: true });
      }
    }
    throw new DataDirInUseError(abs, 0);
  }

  get archivesDir(): string {
    return path.join(this.dir, 'archives');
  }

  loadJobs(): JobRecord[] {
    const file = path.join(this.dir, JOBS_FILE);
    if (!existsSync(file)) return [];
    return JobsFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).jobs;
  }

  saveJobs(jobs: JobRecord[]): void {
    this.writeAtomically(JOBS_FILE, JSON.stringify({ version: 1, jobs }, null, 1));
  }

  /** The app's settings; defaults when none were saved. */
  loadSettings(): AppSettings {
    const file = path.join(this.dir, SETTINGS_FILE);
    if (!existsSync(file)) return AppSettingsSchema.parse({});
    return AppSettingsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  }

  saveSettings(settings: AppSettings): void {
    this.writeAtomically(SETTINGS_FILE, JSON.stringify(settings, null, 1));
  }

  private writeAtomically(name: string, text: string): void {
    const file = path.join(this.dir, name);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }

  release(): void {
    rmSync(path.join(this.dir, LOCK_FILE), { force: true });
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
