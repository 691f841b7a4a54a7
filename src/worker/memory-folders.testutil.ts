/** Recent folders kept in memory (the engine's `folderHandles` port) for tests that open folder handles. */
import type { RecentRepo } from '../adapters/browser/recent';

export function memoryFolders() {
  const recent: RecentRepo[] = [];
  return {
    remember: async (h: FileSystemDirectoryHandle) =>
      recent.find((r) => r.handle === h) ??
      (recent.push({ id: `folder-${recent.length + 1}`, name: h.name, handle: h, openedAt: Date.now() }),
      recent.at(-1)!),
    list: async () => recent,
    forget: async () => {},
  };
}
