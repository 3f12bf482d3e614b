/**
 * Preloaded into a harvest process (`node --import` this file, see `diskFullEnv`): writes under
 * HARVEST_TEST_FULL_DIR fail with ENOSPC after HARVEST_TEST_FULL_AFTER bytes (diskFull.ts).
 */
import { fillDiskAfter } from './diskFull.js';

const dir = process.env.HARVEST_TEST_FULL_DIR;
if (dir) fillDiskAfter(dir, Number(process.env.HARVEST_TEST_FULL_AFTER ?? '0'));
