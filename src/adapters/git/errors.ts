/**
 * isomorphic-git errors (a `code` and a `data` payload) -> QuarryError with the issue's
 * messages: 401/403 "authentication required", 404 "repository not found", a network or
 * CORS failure explained, an unknown branch with the remote's branches listed.
 */
import { QuarryError } from '../../core/errors';
import { displayUrl } from './http';
import { isQuotaError, quotaError } from './storage';

interface GitErrorLike {
  code?: string;
  name?: string;
  message?: string;
  data?: Record<string, unknown>;
  errors?: unknown[];
}

export interface ErrorContext {
  /** e.g. "Cloning https://host/repo.git" */
  what: string;
  url: string;
  ref?: string;
  /** Whether a token was sent. */
  hadToken: boolean;
}

/** The first QuarryError or quota error inside isomorphic-git's MultipleGitError, if any. */
function unwrap(err: unknown): unknown {
  const e = err as GitErrorLike;
  if (e && e.code === 'MultipleGitError' && Array.isArray(e.errors ?? e.data?.errors)) {
    const inner = (e.errors ?? (e.data?.errors as unknown[])) as unknown[];
    return inner.find((x) => x instanceof QuarryError) ?? inner.find(isQuotaError) ?? inner[0] ?? err;
  }
  return err;
}

export function toGitError(raw: unknown, ctx: ErrorContext): QuarryError {
  const err = unwrap(raw);
  if (err instanceof QuarryError) return err;
  if (isQuotaError(err)) return quotaError(ctx.what);
  const e = (err ?? {}) as GitErrorLike;
  const url = displayUrl(ctx.url);
  const message = e.message ?? String(err);
  switch (e.code) {
    case 'HttpError': {
      const status = Number(e.data?.statusCode ?? 0);
      if (status === 401 || status === 403) {
        return new QuarryError(
          'AuthRequired',
          ctx.hadToken
            ? `authentication required: the server refused the token for ${url} (HTTP ${status}). Check the token and its access to this repository.`
            : `authentication required: ${url} is private or needs sign-in (HTTP ${status}). Enter an access token and clone again.`,
          { url, status, needsToken: true, tokenRejected: ctx.hadToken },
        );
      }
      if (status === 404) {
        return new QuarryError(
          'NotFound',
          `repository not found: ${url} (HTTP 404). Check the URL; a private repository may also answer 404 without a token.`,
          {
            url,
            status,
          },
        );
      }
      return new QuarryError(
        'CloneFailed',
        `${ctx.what} failed: the server answered HTTP ${status} ${String(e.data?.statusMessage ?? '')}`.trim(),
        {
          url,
          status,
        },
      );
    }
    case 'UserCanceledError':
      // onAuthFailure cancels when the server refuses the token we sent.
      return new QuarryError(
        'AuthRequired',
        `authentication required: the server refused the token for ${url}. Check the token and its access to this repository.`,
        {
          url,
          status: 401,
          needsToken: true,
          tokenRejected: true,
        },
      );
    case 'UrlParseError':
    case 'UnknownTransportError':
      return new QuarryError(
        'InvalidArgument',
        `Not a git URL Quarry can clone: ${url} (use an http:// or https:// URL)`,
        { field: 'url', value: url },
      );
    case 'SmartHttpError':
    case 'ParseError':
    case 'EmptyServerResponseError':
      return new QuarryError(
        'CloneFailed',
        `${ctx.what} failed: ${url} did not answer like a git server (${message})`,
        { url, detail: message },
      );
    case 'RemoteCapabilityError':
      return new QuarryError(
        'CloneFailed',
        `${ctx.what} failed: the server does not support this request (${message}). Try a full clone (depth 0).`,
        {
          url,
          detail: message,
        },
      );
    default:
      return new QuarryError('CloneFailed', `${ctx.what} failed: ${message}`, {
        url,
        detail: message,
        gitCode: e.code ?? null,
      });
  }
}
