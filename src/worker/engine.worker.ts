/** The web worker entry: a few lines that expose the engine (the logic lives in engine.ts and the modules it composes). */
import { browserGrammarLoader } from '../adapters/browser/grammars';
import { IdbIndexStore } from '../adapters/browser/idb-index-store';
import { loadDemoFiles } from '../adapters/browser/demo-bundle';
import { createEngineApi } from './engine';
import { exposeEngine } from './expose';
import { browserParsePool } from './parse-pool';
import { browserSearchPool } from './search-pool';
import { browserEmbedder } from './embed-client';

const embedder = browserEmbedder();

exposeEngine(
  createEngineApi({
    host: 'worker',
    loadDemo: loadDemoFiles,
    grammarLoader: browserGrammarLoader,
    indexStore: new IdbIndexStore(),
    parsePool: browserParsePool,
    searchPool: browserSearchPool,
    ...(embedder ? { semanticModel: (onProgress, signal) => embedder.load(onProgress, signal) } : {}),
  }),
);
