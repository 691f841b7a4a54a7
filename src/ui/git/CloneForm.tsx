/**
 * The clone form of the Repositories dialog: a git URL, branch or tag, history depth, and the
 * access settings (token, CORS proxy), with the running clone's progress and why the last failed.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { QuarryError } from '../../core/errors';
import { VisibleText } from '../VisibleText';
import { GitProgressBar } from './GitProgress';
import type { LibraryDialogProps } from './LibraryDialog';
import { keepToken, loadProxy, saveProxy, tokenFor } from './settings';

export type CloneFormProps = Pick<LibraryDialogProps, 'cloning' | 'startClone' | 'cloneError' | 'prefill'>;

export const DEPTH_CHOICES: ReadonlyArray<{ value: number; label: string }> = [
  { value: 1, label: 'Latest commit only (fastest)' },
  { value: 50, label: 'Last 50 commits' },
  { value: 0, label: 'Full history' },
];

/** The clone's access settings: a token (kept in memory, or remembered) and a CORS proxy. */
function AccessFields({
  token,
  setToken,
  remember,
  setRemember,
  proxy,
  setProxy,
  tokenRef,
  proxyRef,
}: {
  token: string;
  setToken: (v: string) => void;
  remember: boolean;
  setRemember: (v: boolean) => void;
  proxy: string;
  setProxy: (v: string) => void;
  tokenRef: RefObject<HTMLInputElement | null>;
  proxyRef: RefObject<HTMLInputElement | null>;
}) {
  return (
    <div className="clone-access">
      <label>
        Access token (private repositories){' '}
        <input
          ref={tokenRef}
          type="password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          size={28}
        />
      </label>
      <label className="check">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember
        the token on this device
      </label>
      <label>
        CORS proxy URL{' '}
        <input
          ref={proxyRef}
          type="url"
          value={proxy}
          onChange={(e) => setProxy(e.target.value)}
          placeholder="none"
          spellCheck={false}
          size={32}
        />
      </label>
      <p className="muted">
        The token is kept in this tab's memory unless you tick “Remember”; it is sent with this repository's
        requests only, and through the CORS proxy when one is set, so use a proxy you trust. Browsers can only
        clone from servers that allow cross-origin requests; for other hosts, a CORS proxy relays the git
        traffic.
      </p>
    </div>
  );
}

/** Why the clone failed; a missing branch lists the ones there are, to pick from. */
function CloneError({ error, onPick }: { error: QuarryError; onPick: (branch: string) => void }) {
  const branches = Array.isArray(error.data?.branches) ? (error.data.branches as string[]) : [];
  return (
    <div className="form-error" role="alert" data-testid="clone-error">
      <p>
        <VisibleText text={error.message} multiline />
      </p>
      {branches.length > 0 && (
        <p>
          Pick one:{' '}
          {branches.map((b) => (
            <button key={b} type="button" className="chip" onClick={() => onPick(b)}>
              <VisibleText text={b} />
            </button>
          ))}
        </p>
      )}
    </div>
  );
}

/**
 * A failed clone that needs a token or a proxy opens those settings and focuses the field
 * (in an effect after the commit that rendered it). The refs are the two fields'.
 */
function useAccessFocus(
  cloneError: QuarryError | null,
  showAccess: boolean,
  setShowAccess: (show: boolean) => void,
) {
  const tokenRef = useRef<HTMLInputElement>(null);
  const proxyRef = useRef<HTMLInputElement>(null);
  const focusField =
    cloneError?.code === 'AuthRequired'
      ? 'token'
      : cloneError?.code === 'NetworkError' && cloneError.data?.suggestCorsProxy
        ? 'proxy'
        : null;
  useEffect(() => {
    if (focusField) setShowAccess(true);
  }, [cloneError, focusField, setShowAccess]);
  useEffect(() => {
    if (!showAccess || !focusField) return;
    (focusField === 'token' ? tokenRef : proxyRef).current?.focus();
  }, [cloneError, focusField, showAccess]);
  return { tokenRef, proxyRef };
}

/** The clone's options: branch or tag, history depth, and the toggle of the access settings. */
function CloneOptions({
  gitRef,
  setGitRef,
  depth,
  setDepth,
  showAccess,
  setShowAccess,
  disabled,
}: {
  gitRef: string;
  setGitRef: (ref: string) => void;
  depth: number;
  setDepth: (depth: number) => void;
  showAccess: boolean;
  setShowAccess: (update: (show: boolean) => boolean) => void;
  disabled: boolean;
}) {
  return (
    <div className="clone-options">
      <label>
        Branch or tag{' '}
        <input
          value={gitRef}
          onChange={(e) => setGitRef(e.target.value)}
          placeholder="default branch"
          spellCheck={false}
          disabled={disabled}
          size={16}
        />
      </label>
      <label>
        History{' '}
        <select value={depth} onChange={(e) => setDepth(Number(e.target.value))} disabled={disabled}>
          {DEPTH_CHOICES.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="link"
        aria-expanded={showAccess}
        onClick={() => setShowAccess((v) => !v)}
      >
        Access token and CORS proxy
      </button>
    </div>
  );
}

export function CloneForm({ cloning, startClone, cloneError, prefill }: CloneFormProps) {
  const [url, setUrl] = useState(prefill?.url ?? '');
  const [ref, setRef] = useState(prefill?.ref ?? '');
  const [depth, setDepth] = useState(1);
  const initialToken = tokenFor(prefill?.url ?? '');
  const [token, setToken] = useState(initialToken.token);
  const [remember, setRemember] = useState(initialToken.remembered);
  const [proxy, setProxy] = useState(loadProxy);
  const [showAccess, setShowAccess] = useState(!!initialToken.token || !!loadProxy());
  const [inputError, setInputError] = useState<QuarryError | null>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const error = inputError ?? cloneError;

  useEffect(() => urlRef.current?.focus(), []);
  // after the URL's focus: a failed clone's field takes it from there
  const { tokenRef, proxyRef } = useAccessFocus(cloneError, showAccess, setShowAccess);

  // A token kept for this host fills in when the URL changes.
  const onUrl = (value: string) => {
    setUrl(value);
    const t = tokenFor(value);
    if (t.token) {
      setToken(t.token);
      setRemember(t.remembered);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (cloning) return;
    const u = url.trim();
    if (!u) {
      setInputError(
        new QuarryError(
          'InvalidArgument',
          'Enter the URL of a git repository, for example https://github.com/owner/repo.git',
        ),
      );
      urlRef.current?.focus();
      return;
    }
    setInputError(null);
    saveProxy(proxy);
    keepToken(u, token, remember);
    startClone({
      url: u,
      ref: ref.trim() || undefined,
      depth,
      token: token.trim() || undefined,
      corsProxy: proxy.trim() || undefined,
    });
  };

  return (
    <form className="clone-form" onSubmit={submit} aria-labelledby={`${ids}-title`} data-testid="clone-form">
      <h3 id={`${ids}-title`}>Clone a git repository</h3>
      <div className="clone-row">
        <label htmlFor={`${ids}-url`}>Repository URL</label>
        <input
          id={`${ids}-url`}
          ref={urlRef}
          type="url"
          inputMode="url"
          placeholder="https://github.com/owner/repo.git"
          value={url}
          onChange={(e) => onUrl(e.target.value)}
          spellCheck={false}
          autoComplete="url"
          disabled={!!cloning}
        />
        <button type="submit" className="primary" disabled={!!cloning}>
          Clone
        </button>
      </div>
      <CloneOptions
        gitRef={ref}
        setGitRef={setRef}
        depth={depth}
        setDepth={setDepth}
        showAccess={showAccess}
        setShowAccess={setShowAccess}
        disabled={!!cloning}
      />
      {showAccess && (
        <AccessFields
          token={token}
          setToken={setToken}
          remember={remember}
          setRemember={setRemember}
          proxy={proxy}
          setProxy={setProxy}
          tokenRef={tokenRef}
          proxyRef={proxyRef}
        />
      )}
      {cloning && (
        <GitProgressBar
          verb="Cloning"
          store={cloning.progress}
          onCancel={cloning.cancel}
          testId="clone-progress"
        />
      )}
      {error && <CloneError error={error} onPick={setRef} />}
    </form>
  );
}
