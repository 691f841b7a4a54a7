/**
 * A repository file's bytes as a URL for an <img> (never a network request, never inline markup:
 * an SVG shown through <img> cannot run its scripts). A blob: URL, revoked when the path changes
 * or the component goes away; an SVG gets a data: URL instead, since "open image in new tab" on a
 * blob: URL would make it a document of the app's own origin, where its scripts could run.
 */
import { useEffect, useState } from 'react';
import { toQuarryError, type QuarryError } from '../../core/errors';
import { useEngine } from '../engine';
import { imageMime } from './file-kind';

export type FileBlob =
  | { state: 'loading' }
  | { state: 'ready'; url: string; bytes: number }
  | { state: 'error'; error: QuarryError };

export function useFileBlob(path: string, repoKey: string): FileBlob {
  const engine = useEngine();
  const [blob, setBlob] = useState<FileBlob>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    let url = '';
    setBlob({ state: 'loading' });
    engine.readBytes(path).then(
      ({ bytes }) => {
        if (!current) return;
        const mime = imageMime(path);
        if (mime === 'image/svg+xml')
          setBlob({ state: 'ready', url: dataUrl(bytes, mime), bytes: bytes.byteLength });
        else {
          url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }));
          setBlob({ state: 'ready', url, bytes: bytes.byteLength });
        }
      },
      (err) => current && setBlob({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [engine, path, repoKey]);
  return blob;
}

/** `data:<mime>;base64,…` of some bytes (base64 built a slice at a time: no argument-count limit). */
export function dataUrl(bytes: Uint8Array, mime: string): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${mime};base64,${btoa(binary)}`;
}
