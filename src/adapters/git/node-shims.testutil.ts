/** Node 20 test shims for the git adapter: IndexedDB (fake-indexeddb) and a bare `navigator` for lightning-fs. */
import 'fake-indexeddb/auto';

const g = globalThis as unknown as { navigator?: object };
g.navigator ??= {};
