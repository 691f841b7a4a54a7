/** find_components, get_routes and feature_status through the real `quarry` bin over the fixture apps. */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
const APPS = path.resolve(__dirname, '../../test/fixtures/apps');

function quarry(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, QUARRY_ROOT: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const call = (tool: string, args: unknown, app: string) =>
  quarry(['call', tool, JSON.stringify(args), '--root', path.join(APPS, app), '--no-cache']);

describe('quarry call: the analysis tools', () => {
  it('get_routes lists the App Router fixture', () => {
    const r = call('get_routes', { appDirectory: 'app', includeApi: true }, 'next-app');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.pages, out.apiRoutes, out.total]).toEqual([18, 3, 36]);
    expect(out.routes.slice(0, 2)).toEqual([
      { path: '/', type: 'layout', filePath: 'app/layout.tsx', app: 'next-app', router: 'app' },
      { path: '/', type: 'layout', filePath: 'app/(marketing)/layout.tsx', app: 'next-app', router: 'app' },
    ]);
    expect(out.routes.find((x: any) => x.filePath === 'app/feed/(..)photo/[id]/page.tsx')).toEqual({
      path: '/photo/[id]',
      type: 'page',
      filePath: 'app/feed/(..)photo/[id]/page.tsx',
      app: 'next-app',
      router: 'app',
      intercept: { marker: '(..)', from: '/feed' },
    });
  }, 60_000);

  it('get_routes groups a monorepo by app', () => {
    const r = call('get_routes', {}, 'monorepo');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).apps.map((a: any) => [a.name, a.total])).toEqual([
      ['@acme/docs', 3],
      ['@acme/web', 4],
      ['@acme/admin', 2],
    ]);
  }, 60_000);

  it('find_components finds the library components with the parser', () => {
    const r = call('find_components', { namePattern: '.*Button', directory: 'src/components' }, 'react-lib');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.total).toBe(2);
    expect(out.components.map((c: any) => [c.name, c.path, c.type, c.line, c.kind, c.uses.count])).toEqual([
      ['Button', 'src/components/Button.tsx', 'function', 8, 'function', 3],
      ['IconButton', 'src/components/Button.tsx', 'function', 12, 'function', 1],
    ]);
  }, 60_000);

  it('feature_status answers for a flagged, tested feature', () => {
    const r = call('feature_status', { featureName: 'notifications', includeInventory: true }, 'flags-app');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.featureName, out.implemented, out.featureFlagged, out.flagName, out.testCoverage]).toEqual([
      'notifications',
      true,
      true,
      'notifications',
      true,
    ]);
    expect(out.references[0]).toMatchObject({ path: 'src/posthog/Notifications.tsx', line: 4 });
    expect(out.inventory.total).toBe(17);
  }, 60_000);

  const invalid: Array<[string, string, unknown, string, string]> = [
    ['find_components', 'an invalid namePattern', { namePattern: '([' }, 'react-lib', 'InvalidPattern'],
    [
      'find_components',
      'a directory escaping the root',
      { directory: '../..' },
      'react-lib',
      'PathOutsideRoot',
    ],
    ['get_routes', 'includeApi that is not a boolean', { includeApi: 'no' }, 'next-app', 'InvalidArgument'],
    [
      'get_routes',
      'an appDirectory path that does not exist',
      { appDirectory: 'src/nope/app' },
      'next-app',
      'NotFound',
    ],
    ['feature_status', 'a missing featureName', {}, 'flags-app', 'InvalidArgument'],
  ];
  it.each(invalid)(
    '%s: exits 2 with {"error"} for %s',
    (tool, _n, args, app, code) => {
      const r = call(tool, args, app);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe(code);
    },
    60_000,
  );
});
