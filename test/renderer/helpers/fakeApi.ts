import { isCommandName, type CommandArgs, type CommandName, type CommandResult, type HostEvent, type Reply } from '../../../shared/contract.js';
import type { RendererApi } from '../../../renderer/api/index.js';

export type Handlers = { [C in CommandName]?: (args: CommandArgs<C>) => Reply<CommandResult<C>> | Promise<Reply<CommandResult<C>>> };

export interface FakeApi extends RendererApi {
  calls: { command: CommandName; args: unknown }[];
  callsTo(command: CommandName): unknown[];
  emit(event: HostEvent): void;
}

/** A HarvestApi answering from the given handlers ('unsupported' otherwise) and recording every call. */
export function fakeApi(handlers: Handlers = {}): FakeApi {
  const listeners = new Set<(e: HostEvent) => void>();
  const calls: { command: CommandName; args: unknown }[] = [];
  const call = async (command: CommandName, args: unknown): Promise<Reply<unknown>> => {
    calls.push({ command, args });
    const h = handlers[command] as ((a: unknown) => Reply<unknown> | Promise<Reply<unknown>>) | undefined;
    return h ? h(args) : { ok: false, error: { code: 'unsupported', message: `${command} not faked` } };
  };
  return new Proxy(
    {
      calls,
      callsTo: (command: CommandName) => calls.filter((c) => c.command === command).map((c) => c.args),
      emit: (e: HostEvent) => listeners.forEach((l) => l(e)),
      onEvent: (l: (e: HostEvent) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    {
      get: (target, prop: string) =>
        prop in target ? target[prop as keyof typeof target] : isCommandName(prop) ? (args: unknown) => call(prop, args) : undefined,
    },
  ) as unknown as FakeApi;
}

export const ok = <T>(value: T): Reply<T> => ({ ok: true, value });
