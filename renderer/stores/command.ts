import type { CommandArgs, CommandName, CommandResult, Reply } from '../../shared/contract.js';
import { api } from '../api/index.js';
import { useToasts } from './toasts.js';

/**
 * Runs a command through the installed API. Failures are shown as a toast, except 'invalid-job',
 * whose issues the job form shows beside its fields.
 */
export async function command<C extends CommandName>(name: C, args: CommandArgs<C>): Promise<Reply<CommandResult<C>>> {
  const fn = api()[name] as (a: CommandArgs<C>) => Promise<Reply<CommandResult<C>>>;
  const reply = await fn(args);
  if (!reply.ok && reply.error.code !== 'invalid-job') useToasts.getState().push('error', reply.error.message);
  return reply;
}

/** The value of a command, or null after a failure (already reported). */
export async function commandValue<C extends CommandName>(name: C, args: CommandArgs<C>): Promise<CommandResult<C> | null> {
  const reply = await command(name, args);
  return reply.ok ? reply.value : null;
}
