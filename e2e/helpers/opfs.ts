/**
 * Fixture repositories in the origin-private file system (navigator.storage.getDirectory()),
 * and a showDirectoryPicker that returns one: the app then runs its real File System Access
 * code path (handle -> worker -> DirectoryHandleSource, handle kept in IndexedDB).
 */
import type { Page } from '@playwright/test';

export type FixtureFiles = Record<string, string>;

/**
 * Write files under /<dir> in OPFS from the page itself (createWritable). Not from a blob: worker
 * with sync access handles: the built app's CSP (worker-src 'self') refuses blob: workers.
 */
export async function writeOpfsRepo(page: Page, dir: string, files: FixtureFiles): Promise<void> {
  await page.evaluate(
    async ({ dir, entries }) => {
      const root = await navigator.storage.getDirectory();
      try {
        await root.removeEntry(dir, { recursive: true });
      } catch {
        // not there yet
      }
      const base = await root.getDirectoryHandle(dir, { create: true });
      const dirs = new Map<string, FileSystemDirectoryHandle>([['', base]]);
      const dirOf = async (path: string): Promise<FileSystemDirectoryHandle> => {
        const known = dirs.get(path);
        if (known) return known;
        const i = path.lastIndexOf('/');
        const parent = await dirOf(i < 0 ? '' : path.slice(0, i));
        const h = await parent.getDirectoryHandle(path.slice(i + 1), { create: true });
        dirs.set(path, h);
        return h;
      };
      for (const [path, text] of entries) {
        const i = path.lastIndexOf('/');
        const parent = await dirOf(i < 0 ? '' : path.slice(0, i));
        const writable = await (
          await parent.getFileHandle(path.slice(i + 1), { create: true })
        ).createWritable();
        await writable.write(text);
        await writable.close();
      }
    },
    { dir, entries: Object.entries(files) },
  );
}

/** Make window.showDirectoryPicker resolve with the OPFS directory `dir` (set before the app loads). */
export async function pickerReturnsOpfs(page: Page, dir: string): Promise<void> {
  await page.addInitScript((d) => {
    (
      window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }
    ).showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle(d);
  }, dir);
}

/** Overwrite (or create) one file of an OPFS fixture, leaving the others untouched (their mtimes too). */
export async function writeOpfsFile(page: Page, dir: string, path: string, text: string): Promise<void> {
  await page.evaluate(
    async ({ dir, path, text }) => {
      let h = await (await navigator.storage.getDirectory()).getDirectoryHandle(dir);
      const parts = path.split('/');
      for (const p of parts.slice(0, -1)) h = await h.getDirectoryHandle(p, { create: true });
      const writable = await (
        await h.getFileHandle(parts[parts.length - 1], { create: true })
      ).createWritable();
      await writable.write(text);
      await writable.close();
    },
    { dir, path, text },
  );
}

/** Write one binary file (an image) into an OPFS fixture, as bytes (the page receives them as a number array). */
export async function writeOpfsBytes(
  page: Page,
  dir: string,
  path: string,
  bytes: Uint8Array,
): Promise<void> {
  await page.evaluate(
    async ({ dir, path, data }) => {
      let h = await (await navigator.storage.getDirectory()).getDirectoryHandle(dir, { create: true });
      const parts = path.split('/');
      for (const p of parts.slice(0, -1)) h = await h.getDirectoryHandle(p, { create: true });
      const writable = await (
        await h.getFileHandle(parts[parts.length - 1], { create: true })
      ).createWritable();
      await writable.write(new Uint8Array(data));
      await writable.close();
    },
    { dir, path, data: [...bytes] },
  );
}

/**
 * Write files as bytes under /<dir> in OPFS (a real `.git` directory: packs, the index, loose
 * objects). Bytes cross into the page as base64 in slices of about 4 MB, the first slice
 * replacing the directory.
 */
export async function writeOpfsTree(
  page: Page,
  dir: string,
  files: Record<string, Uint8Array>,
): Promise<void> {
  const entries = Object.entries(files).map(
    ([path, bytes]) => [path, Buffer.from(bytes).toString('base64')] as [string, string],
  );
  const slices: Array<Array<[string, string]>> = [[]];
  let size = 0;
  for (const e of entries) {
    if (size > 4_000_000) {
      slices.push([]);
      size = 0;
    }
    slices[slices.length - 1].push(e);
    size += e[1].length;
  }
  for (let i = 0; i < slices.length; i++) {
    await page.evaluate(
      async ({ dir, entries, fresh }) => {
        const root = await navigator.storage.getDirectory();
        if (fresh) {
          try {
            await root.removeEntry(dir, { recursive: true });
          } catch {
            // not there yet
          }
        }
        const base = await root.getDirectoryHandle(dir, { create: true });
        for (const [path, b64] of entries) {
          const parts = path.split('/');
          let h = base;
          for (const p of parts.slice(0, -1)) h = await h.getDirectoryHandle(p, { create: true });
          const bin = atob(b64);
          const bytes = new Uint8Array(bin.length);
          for (let j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
          const writable = await (
            await h.getFileHandle(parts[parts.length - 1], { create: true })
          ).createWritable();
          await writable.write(bytes);
          await writable.close();
        }
      },
      { dir, entries: slices[i], fresh: i === 0 },
    );
  }
}

/**
 * Copy a folder on disk into OPFS as /<dir>, inside the page: the files reach the page through a
 * throwaway `<input webkitdirectory>` (no base64 over the protocol, so a real tree of tens of
 * megabytes copies in seconds) and are piped into OPFS files, a few at a time. Returns the count.
 */
export async function copyDiskDirToOpfs(page: Page, diskDir: string, dir: string): Promise<number> {
  const id = 'e2e-opfs-copy';
  await page.evaluate((id) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.webkitdirectory = true;
    input.id = id;
    input.hidden = true;
    document.body.append(input);
  }, id);
  await page.locator(`#${id}`).setInputFiles(diskDir);
  return page.evaluate(
    async ({ id, dir }) => {
      const input = document.getElementById(id) as HTMLInputElement;
      const files = [...(input.files ?? [])];
      input.remove();
      const root = await navigator.storage.getDirectory();
      try {
        await root.removeEntry(dir, { recursive: true });
      } catch {
        // not there yet
      }
      const dirs = new Map<string, Promise<FileSystemDirectoryHandle>>([
        ['', root.getDirectoryHandle(dir, { create: true })],
      ]);
      const dirOf = (path: string): Promise<FileSystemDirectoryHandle> => {
        let known = dirs.get(path);
        if (!known) {
          const i = path.lastIndexOf('/');
          known = dirOf(i < 0 ? '' : path.slice(0, i)).then((parent) =>
            parent.getDirectoryHandle(path.slice(i + 1), { create: true }),
          );
          dirs.set(path, known);
        }
        return known;
      };
      let next = 0;
      const lane = async () => {
        while (next < files.length) {
          const file = files[next++];
          // "chosen-folder/sub/file": the path inside the chosen folder
          const rel = file.webkitRelativePath.slice(file.webkitRelativePath.indexOf('/') + 1);
          const i = rel.lastIndexOf('/');
          const parent = await dirOf(i < 0 ? '' : rel.slice(0, i));
          const writable = await (
            await parent.getFileHandle(rel.slice(i + 1), { create: true })
          ).createWritable();
          await file.stream().pipeTo(writable);
        }
      };
      await Promise.all(Array.from({ length: 8 }, lane));
      return files.length;
    },
    { id, dir },
  );
}
