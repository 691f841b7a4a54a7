// fake-indexeddb ships types, but not through its package.json exports map.
declare module 'fake-indexeddb/auto';
