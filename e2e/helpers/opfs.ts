/**
 * Fixture repositories in the origin-private file system (navigator.storage.getDirectory()),
 * and a showDirectoryPicker that returns one: the app then runs its real File System Access
 * code path (handle -> worker -> DirectoryHandleSource, handle kept in IndexedDB).
 */
import type { Page } from '@playwright/test';

export type FixtureFiles = Record<string, string>;

/** Write files under /<dir> in OPFS from a dedicated worker (sync access handles: fast for 10k files). */
export async function writeOpfsRepo(page: Page, dir: string, files: FixtureFiles): Promise<void> {
  await page.evaluate(
    async ({ dir, entries }) => {
      const code = `
        onmessage = async (e) => {
          try {
            const { dir, entries } = e.data;
            const root = await navigator.storage.getDirectory();
            try { await root.removeEntry(dir, { recursive: true }); } catch {}
            const base = await root.getDirectoryHandle(dir, { create: true });
            const dirs = new Map([['', base]]);
            const enc = new TextEncoder();
            const dirOf = async (path) => {
              if (dirs.has(path)) return dirs.get(path);
              const i = path.lastIndexOf('/');
              const parent = await dirOf(i < 0 ? '' : path.slice(0, i));
              const h = await parent.getDirectoryHandle(path.slice(i + 1), { create: true });
              dirs.set(path, h);
              return h;
            };
            for (const [path, text] of entries) {
              const i = path.lastIndexOf('/');
              const parent = await dirOf(i < 0 ? '' : path.slice(0, i));
              const fh = await parent.getFileHandle(path.slice(i + 1), { create: true });
              const access = await fh.createSyncAccessHandle();
              access.truncate(0);
              access.write(enc.encode(text), { at: 0 });
              access.close();
            }
            postMessage({ ok: true });
          } catch (err) {
            postMessage({ ok: false, error: String(err && err.stack || err) });
          }
        };`;
      const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
      const worker = new Worker(url);
      const result = await new Promise<{ ok: boolean; error?: string }>((resolve) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.postMessage({ dir, entries });
      });
      worker.terminate();
      URL.revokeObjectURL(url);
      if (!result.ok) throw new Error(result.error);
    },
    { dir, entries: Object.entries(files) },
  );
}

/** Make window.showDirectoryPicker resolve with the OPFS directory `dir` (set before the app loads). */
export async function pickerReturnsOpfs(page: Page, dir: string): Promise<void> {
  await page.addInitScript((d) => {
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle(d);
  }, dir);
}

/** Overwrite (or create) one file of an OPFS fixture, leaving the others untouched (their mtimes too). */
export async function writeOpfsFile(page: Page, dir: string, path: string, text: string): Promise<void> {
  await page.evaluate(
    async ({ dir, path, text }) => {
      const code = `
        onmessage = async (e) => {
          try {
            const { dir, path, text } = e.data;
            let h = await (await navigator.storage.getDirectory()).getDirectoryHandle(dir);
            const parts = path.split('/');
            for (const p of parts.slice(0, -1)) h = await h.getDirectoryHandle(p, { create: true });
            const fh = await h.getFileHandle(parts[parts.length - 1], { create: true });
            const access = await fh.createSyncAccessHandle();
            access.truncate(0);
            access.write(new TextEncoder().encode(text), { at: 0 });
            access.close();
            postMessage({ ok: true });
          } catch (err) {
            postMessage({ ok: false, error: String(err && err.stack || err) });
          }
        };`;
      const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
      const worker = new Worker(url);
      const result = await new Promise<{ ok: boolean; error?: string }>((resolve) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.postMessage({ dir, path, text });
      });
      worker.terminate();
      URL.revokeObjectURL(url);
      if (!result.ok) throw new Error(result.error);
    },
    { dir, path, text },
  );
}
