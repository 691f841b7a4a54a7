/**
 * A repository file's bytes as a blob: URL for an <img> (never a network request, never inline
 * markup: an SVG shown through <img> cannot run its scripts). The URL is revoked when the path
 * changes or the component goes away.
 */
import { useEffect, useState } from 'react';
import { toQuarryError, type QuarryError } from '../../core/errors';
import { useEngine } from '../engine';
import { imageMime } from './file-kind';

export type FileBlob = { state: 'loading' } | { state: 'ready'; url: string; bytes: number } | { state: 'error'; error: QuarryError };

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
        url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: imageMime(path) }));
        setBlob({ state: 'ready', url, bytes: bytes.byteLength });
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
