// Starts embed-thread.ts in a worker thread when Quarry runs from its TypeScript sources
// (tests, the bench): tsx compiles it. The bundled CLI starts the bundled embed-thread.mjs.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
