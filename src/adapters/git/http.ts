/**
 * isomorphic-git's fetch-based `http/web` client (runs in a worker and in Node 20 alike),
 * wrapped so that
 *   - an AbortSignal cancels the request and the body stream (isomorphic-git has no abort),
 *   - a request that never gets a response (CORS refusal, DNS, refused connection) becomes
 *     NetworkError, and a body that breaks off midway becomes CloneFailed.
 * The QuarryErrors thrown here pass through isomorphic-git unchanged.
 */
import './env';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { request as webRequest } from 'isomorphic-git/http/web';
import { QuarryError } from '../../core/errors';

export function cancelledError(what: string): QuarryError {
  return new QuarryError('Cancelled', `${what} was cancelled`, { what });
}

/** The URL without credentials or query, for messages. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.toString().replace(/\/(info\/refs|git-upload-pack)$/, '');
  } catch {
    return url;
  }
}

export function networkError(url: string, cause: unknown, proxied: boolean): QuarryError {
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  const reason = cause instanceof Error ? cause.message : String(cause);
  const hint = proxied
    ? `Check that the CORS proxy is running and can reach ${host}.`
    : `Browsers can only clone from servers that allow cross-origin requests; most git hosts do not. Set a CORS proxy in the clone settings and try again.`;
  return new QuarryError(
    'NetworkError',
    `Could not reach ${host}: the request failed before the server answered (${reason}). ${hint}`,
    {
      url: displayUrl(url),
      host,
      detail: reason,
      suggestCorsProxy: !proxied,
    },
  );
}

export function makeHttp(what: string, signal: AbortSignal | undefined, proxied: boolean): HttpClient {
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      if (signal?.aborted) throw cancelledError(what);
      let res: GitHttpResponse;
      try {
        res = await webRequest({ ...req, signal } as GitHttpRequest);
      } catch (err) {
        if (signal?.aborted) throw cancelledError(what);
        throw networkError(req.url, err, proxied);
      }
      const body = res.body;
      if (!body) return res;
      const iter = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]
        ? (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
        : (body as unknown as AsyncIterator<Uint8Array>);
      let received = 0;
      const guarded: AsyncIterableIterator<Uint8Array> = {
        async next() {
          if (signal?.aborted) throw cancelledError(what);
          try {
            const step = await iter.next();
            if (step.value) received += step.value.byteLength;
            return step;
          } catch (err) {
            if (signal?.aborted) throw cancelledError(what);
            const reason = err instanceof Error ? err.message : String(err);
            throw new QuarryError(
              'CloneFailed',
              `The connection to ${displayUrl(req.url)} broke off after ${received} bytes (${reason}). The server may have stopped or the network dropped; nothing was kept, try again.`,
              { url: displayUrl(req.url), receivedBytes: received, detail: reason },
            );
          }
        },
        async return() {
          await iter.return?.();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
      return { ...res, body: guarded };
    },
  };
}
