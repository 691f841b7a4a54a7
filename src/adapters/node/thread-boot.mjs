// Starts a pool's thread (parse-thread.ts, search-thread.ts, embed-thread.ts: worker-thread.ts
// names it in workerData.entry) when Quarry runs from its TypeScript sources (tests, the bench):
// tsx compiles it. The bundled CLI starts the bundled <name>.mjs instead.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
