import type { CommandName } from './contract.js';

/** Electron IPC channel names: one per command (no generic invoke), and one for host events. */
export function commandChannel(command: CommandName): string {
  return `harvest:${command}`;
}

export const EVENT_CHANNEL = 'harvest:event';
