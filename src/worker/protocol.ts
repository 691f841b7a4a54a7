/**
 * The worker boundary: the only module both sides import. Everything crossing it is plain,
 * structured-cloneable data (protocol-types.ts, protocol-git.ts), every method is in one table
 * (protocol-methods.ts: EngineCalls, EngineJobs, ENGINE_METHODS, EngineApi), and every call
 * resolves with an Outcome (protocol-jobs.ts).
 */
export * from './protocol-jobs';
export * from './protocol-types';
export * from './protocol-git';
export * from './protocol-methods';
