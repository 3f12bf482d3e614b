import { z } from 'zod';
import { SKIP_REASONS, URL_STATES } from '../../shared/crawl.js';
import { ArchiveQuerySchema, CountsSchema } from './archiveQueries.js';
import { PolitenessSchema } from '../../shared/job.js';

/** Messages between the host and a crawl worker. Both directions are validated on arrival. */

export const ToWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('query'), requestId: z.number().int(), query: ArchiveQuerySchema }),
]);
export type ToWorker = z.infer<typeof ToWorkerSchema>;

const crawlState = z.enum(['running', 'pausing', 'paused', 'finished', 'failed']);

export const UrlEventSchema = z.object({
  type: z.literal('url'),
  url: z.string(),
  state: z.enum(URL_STATES),
  httpStatus: z.number().optional(),
  skipReason: z.enum(SKIP_REASONS).optional(),
  error: z.string().optional(),
  bytes: z.number().optional(),
  localPath: z.string().optional(),
});

export const ProgressEventSchema = z.object({
  type: z.literal('progress'),
  counts: CountsSchema,
  urlsPerSec: z.number(),
  kbPerSec: z.number(),
  elapsedMs: z.number(),
  current: z.array(z.string()),
  finishing: z.object({ done: z.number(), total: z.number() }).optional(),
  focus: z
    .object({ relevantPages: z.number(), offTopicPages: z.number(), nearDuplicates: z.number(), harvestRate: z.number().nullable() })
    .optional(),
});

export const FromWorkerSchema = z.discriminatedUnion('type', [
  /** One per progress tick: the counters and every URL settled since the previous tick. */
  z.object({ type: z.literal('progress'), progress: ProgressEventSchema, urls: z.array(UrlEventSchema) }),
  z.object({ type: z.literal('state'), state: crawlState, message: z.string().optional(), politeness: PolitenessSchema.optional() }),
  /** The answer to a query: its value, or the error's message. */
  z.object({ type: z.literal('reply'), requestId: z.number().int(), value: z.unknown(), error: z.string().nullable() }),
  /** The archive could not be used (not an archive, in use, from a newer version): nothing ran. */
  z.object({ type: z.literal('unopened'), error: z.string() }),
  /** The run ended and the archive is closed. */
  z.object({
    type: z.literal('done'),
    state: crawlState,
    error: z.string().nullable(),
    counts: CountsSchema,
    durationMs: z.number(),
  }),
]);
export type FromWorker = z.infer<typeof FromWorkerSchema>;

export interface CrawlWorkerData {
  archiveDir: string;
  /** The process's host gates (createHostGatesBuffer), shared by every crawl worker. */
  gates: SharedArrayBuffer;
  progressIntervalMs?: number;
  /** A seed list to queue before the crawl starts (the command line's --seeds-file). */
  seedsFile?: string;
}
