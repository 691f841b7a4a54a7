/** The web worker entry: a few lines that expose the engine (the logic lives in engine.ts and the modules it composes). */
import { browserGrammarLoader } from '../adapters/browser/grammars';
import { loadDemoFiles } from '../adapters/browser/demo-bundle';
import { browserIndexStore } from './browser-index-store';
import { createEngineApi } from './engine';
import { exposeEngine } from './expose';
import { browserParsePool } from './parse-pool';
import { browserSearchPool } from './search-pool';
import { browserEmbedder } from './embed-client';
import builtInModel from 'virtual:quarry-embed-model-info';

const embedder = browserEmbedder();

exposeEngine(
  createEngineApi({
    host: 'worker',
    loadDemo: loadDemoFiles,
    grammarLoader: browserGrammarLoader,
    // the demo opens indexed: its index is built with the app (until one is stored here)
    indexStore: browserIndexStore(),
    parsePool: browserParsePool,
    searchPool: browserSearchPool,
    ...(embedder ? { semanticModel: (onProgress, signal) => embedder.load(onProgress, signal) } : {}),
    ...(builtInModel ? { semanticBuiltIn: builtInModel } : {}),
  }),
);
