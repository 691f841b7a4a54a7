/**
 * The engine's remote surface, derived from the method table (protocol-methods.ts): each
 * service gives plain handlers, and every handler is wrapped here once, by its kind, in the job
 * edge (edge.ts: Outcomes, job ids, cancel, the foreground the index build gives way to).
 */
import type { JobEdge, JobScope } from '../edge';
import {
  ENGINE_METHODS,
  type EngineApi,
  type EngineCalls,
  type EngineJobs,
  type EngineService,
  type MethodKind,
} from '../protocol';

export type CallHandler<K extends keyof EngineCalls> = (
  ...args: Parameters<EngineCalls[K]>
) => ReturnType<EngineCalls[K]> | Promise<ReturnType<EngineCalls[K]>>;

export type JobHandler<K extends keyof EngineJobs> = (
  scope: JobScope<EngineJobs[K]['item']>,
  ...args: EngineJobs[K]['args']
) => Promise<EngineJobs[K]['end']>;

export type EngineHandlers = { [K in keyof EngineCalls]: CallHandler<K> } & {
  [K in keyof EngineJobs]: JobHandler<K>;
};

/** The handlers one service gives: exactly the methods the table lists under it. */
export type ServiceHandlers<S extends EngineService> = Pick<
  EngineHandlers,
  keyof (typeof ENGINE_METHODS)[S] & keyof EngineHandlers
>;

type AnyHandler = (...args: unknown[]) => unknown;

export function deriveApi(edge: JobEdge, handlers: EngineHandlers): EngineApi {
  const api: Record<string, unknown> = {};
  for (const group of Object.values(ENGINE_METHODS)) {
    for (const [name, kind] of Object.entries(group) as Array<[keyof EngineHandlers, MethodKind]>) {
      const handler = handlers[name] as unknown as AnyHandler;
      if (kind === 'call') api[name] = (...args: unknown[]) => edge.call(() => handler(...args));
      else if (kind === 'foreground')
        api[name] = (...args: unknown[]) => edge.foregroundCall(() => handler(...args));
      else
        api[name] = (jobId: string, onEvent: Parameters<JobEdge['job']>[1], ...args: unknown[]) =>
          edge.job(
            jobId,
            onEvent,
            (scope) => handler(scope, ...args) as Promise<unknown>,
            kind === 'foregroundJob' ? { foreground: true } : undefined,
          );
    }
  }
  return api as EngineApi;
}
