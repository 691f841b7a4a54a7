/** Where a root's History log is stored in the engine's IndexStore (beside `index:`, `seed004:`, `vectors:`). */
export const historyStoreKey = (key: string): string => `history:${key}`;
