/**
 * An image file of the repository, shown as a picture: its bytes come from the engine
 * (readBytes) as a blob: URL in an <img> (an SVG never inlined, so its scripts cannot run), on a
 * checkerboard so transparency shows. The bar says its pixel size and byte size; "Fit" scales a
 * large picture down to the pane, "Actual size" shows it 1:1.
 */
import { useState, type ReactNode } from 'react';
import { formatBytes } from '../format';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { useFileBlob } from './use-file-blob';
import './viewer.css';

export function ImageView({
  path,
  repoKey,
  toolbar,
}: {
  path: string;
  repoKey: string;
  toolbar?: ReactNode;
}) {
  const blob = useFileBlob(path, repoKey);
  const [size, setSize] = useState<{ url: string; w: number; h: number } | null>(null);
  const [broken, setBroken] = useState('');
  const [fit, setFit] = useState(true);
  const url = blob.state === 'ready' ? blob.url : '';
  const dims = size && size.url === url ? size : null;
  return (
    <section
      className="viewer image-view"
      role="region"
      aria-label={visibleText(path)}
      data-testid="image-view"
    >
      <header className="viewer-bar">
        <h2 className="viewer-path" title={visibleText(path)}>
          <VisibleText text={path} />
        </h2>
        {blob.state === 'ready' && (
          <span className="viewer-meta" data-testid="image-meta">
            {dims ? `${dims.w} × ${dims.h} px · ` : ''}
            {formatBytes(blob.bytes)}
          </span>
        )}
        {blob.state === 'ready' && broken !== url && (
          <button
            type="button"
            className="toggle"
            aria-pressed={!fit}
            onClick={() => setFit((f) => !f)}
            title="Show the picture at its actual size, or fitted to the pane"
          >
            Actual size
          </button>
        )}
        {toolbar}
      </header>
      {blob.state === 'loading' && (
        <p className="panel-note">
          Opening <VisibleText text={path} />…
        </p>
      )}
      {blob.state === 'error' && (
        <div className="panel-note" role="alert">
          <p>
            <strong>Cannot show this image.</strong> <VisibleText text={blob.error.message} multiline />
          </p>
        </div>
      )}
      {blob.state === 'ready' &&
        (broken === url ? (
          <div className="panel-note" role="alert">
            <p>
              <strong>This image could not be decoded.</strong> The file may be damaged, or in a format this
              browser does not show.
            </p>
          </div>
        ) : (
          <div
            className={`image-stage${fit ? ' fit' : ''}`}
            tabIndex={0}
            aria-label={`Picture of ${visibleText(path)}`}
          >
            <img
              src={url}
              alt={`${visibleText(path)}${dims ? `, ${dims.w} by ${dims.h} pixels` : ''}`}
              data-testid="image-view-img"
              draggable={false}
              onLoad={(e) =>
                setSize({ url, w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })
              }
              onError={() => setBroken(url)}
            />
          </div>
        ))}
    </section>
  );
}
