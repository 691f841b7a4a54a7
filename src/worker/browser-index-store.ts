/**
 * The browser's index store: IndexedDB, with the demo's index as built with the app answering
 * until one is stored here (the worker and the main-thread fallback both use it).
 */
import { loadDemoIndex } from '../adapters/browser/demo-bundle';
import { IdbIndexStore } from '../adapters/browser/idb-index-store';
import { withShippedIndexes, type IndexStore } from '../core/rank/persist';
import { indexStoreKey } from './session';

export function browserIndexStore(): IndexStore {
  return withShippedIndexes(new IdbIndexStore(), { [indexStoreKey('demo')]: loadDemoIndex });
}
