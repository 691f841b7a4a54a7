/**
 * find_components and get_routes over the fixture apps in test/fixtures/apps (real files, read
 * with the Node adapter) and in-memory trees, table-driven, through callTool.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '.';
import { fixture, memory, parsers, refusal } from './analyze-tools.testutil';

beforeAll(async () => {
  await parsers();
}, 60_000);

// ---------------------------------------------------------------------------------------
describe('find_components on the React library fixture', () => {
  // name, path, line, type, kind, exported, default, uses
  const want: Array<[string, string, number, string, string, boolean, boolean, number]> = [
    ['App', 'src/App.tsx', 13, 'function', 'function', true, false, 0],
    ['Logo', 'src/Logo.ts', 4, 'function', 'function', true, false, 0],
    ['Avatar', 'src/components/Avatar.jsx', 1, 'function', 'function', true, true, 1],
    ['Badge', 'src/components/Badge.js', 3, 'function', 'function', true, true, 1],
    ['Toast', 'src/components/Badge.js', 7, 'arrow', 'arrow', true, false, 1],
    ['Button', 'src/components/Button.tsx', 8, 'function', 'function', true, false, 3],
    ['IconButton', 'src/components/Button.tsx', 12, 'function', 'function', true, false, 1],
    ['Card', 'src/components/Card.tsx', 1, 'arrow', 'arrow', true, false, 2],
    ['CardList', 'src/components/Card.tsx', 8, 'arrow', 'arrow', true, false, 1],
    ['CardFooter', 'src/components/Card.tsx', 12, 'function', 'function', true, false, 0],
    ['Modal', 'src/components/Modal.tsx', 3, 'arrow', 'memo', true, false, 1],
    ['Input', 'src/components/Modal.tsx', 5, 'arrow', 'forwardRef', true, false, 1],
    ['Select', 'src/components/Modal.tsx', 7, 'function', 'memo', true, false, 1],
    ['TextArea', 'src/components/Modal.tsx', 17, 'function', 'memo', true, false, 0],
    ['Tooltip', 'src/components/Modal.tsx', 21, 'arrow', 'forwardRef', true, true, 1],
    ['Counter', 'src/legacy/Legacy.jsx', 3, 'function', 'class', true, false, 1],
    ['Clock', 'src/legacy/Legacy.jsx', 10, 'function', 'class', true, false, 1],
    ['Banner', 'src/legacy/Legacy.jsx', 16, 'function', 'class', true, false, 0],
    ['Panel', 'src/legacy/Panel.tsx', 7, 'function', 'class', true, true, 1],
    ['Helper', 'src/lookalikes.tsx', 29, 'function', 'function', false, false, 1],
    ['UserCard', 'src/user-card/index.tsx', 1, 'arrow', 'arrow', true, true, 1],
  ];

  it('finds every component form, and nothing else', async () => {
    const r = (await callTool('find_components', {}, fixture('react-lib'))) as any;
    expect(
      r.components.map((c: any) => [
        c.name,
        c.path,
        c.line,
        c.type,
        c.kind,
        c.exported,
        c.default,
        c.uses.count,
      ]),
    ).toEqual(want);
    expect(r.total).toBe(want.length);
    expect(r.filesScanned).toBe(12);
    expect(r.skipped).toEqual([]);
  });

  it("keeps the seed's fields and adds the rest", async () => {
    const r = (await callTool('find_components', { namePattern: '^TextArea$' }, fixture('react-lib'))) as any;
    expect(r).toEqual({
      components: [
        {
          name: 'TextArea',
          path: 'src/components/Modal.tsx',
          type: 'function',
          line: 17,
          endLine: 19,
          kind: 'memo',
          wrappers: ['memo', 'forwardRef'],
          exported: true,
          default: false,
          anonymous: false,
          uses: { count: 0, places: [] },
        },
      ],
      total: 1,
      filesScanned: 12,
      skipped: [],
    });
    expect(Object.keys(r.components[0]).slice(0, 3)).toEqual(['name', 'path', 'type']);
  });

  it('lists where a component is used', async () => {
    const r = (await callTool(
      'find_components',
      { namePattern: '^(Button|Card)$' },
      fixture('react-lib'),
    )) as any;
    expect(r.components.map((c: any) => [c.name, c.uses.places])).toEqual([
      [
        'Button',
        [
          { path: 'src/App.test.tsx', line: 5 },
          { path: 'src/App.tsx', line: 16 },
          { path: 'src/components/Button.tsx', line: 15 },
        ],
      ],
      [
        'Card',
        [
          { path: 'src/App.tsx', line: 18 },
          { path: 'src/components/Card.tsx', line: 9 },
        ],
      ],
    ]);
  });

  const scoped: Array<[Record<string, unknown>, string[]]> = [
    [{ directory: 'src/legacy' }, ['Counter', 'Clock', 'Banner', 'Panel']],
    [{ directory: 'src/components', namePattern: 'Button' }, ['Button', 'IconButton']],
    [{ namePattern: '^Card' }, ['Card', 'CardList', 'CardFooter']],
    [{ namePattern: 'API_URL|Config|FormatDate|Sum|useGreeting|renderRow|Columns|Store|Widget|Color' }, []],
  ];
  it.each(scoped)('%j', async (args, names) => {
    const r = (await callTool('find_components', args, fixture('react-lib'))) as any;
    expect(r.components.map((c: any) => c.name)).toEqual(names);
  });
});

// ---------------------------------------------------------------------------------------
type RouteRow = [string, string, string, Record<string, unknown>?];
const rows = (r: any): RouteRow[] =>
  r.routes.map((x: any) => {
    const { path, type, filePath, app: _app, router: _router, ...extra } = x;
    return Object.keys(extra).length ? [path, type, filePath, extra] : [path, type, filePath];
  });

describe('get_routes on the App Router fixture', () => {
  const want: RouteRow[] = [
    ['/', 'layout', 'app/layout.tsx'],
    ['/', 'layout', 'app/(marketing)/layout.tsx'],
    ['/', 'template', 'app/(marketing)/template.tsx'],
    ['/', 'page', 'app/page.tsx'],
    ['/', 'loading', 'app/loading.tsx'],
    ['/', 'error', 'app/error.tsx'],
    ['/', 'not-found', 'app/not-found.tsx'],
    ['/', 'global-error', 'app/global-error.tsx'],
    ['/', 'default', 'app/@modal/default.tsx', { slot: 'modal' }],
    ['/_escaped', 'page', 'app/%5Fescaped/page.tsx'],
    ['/about', 'page', 'app/(marketing)/about/page.tsx'],
    ['/api/users', 'api', 'app/api/users/route.ts', { methods: ['GET', 'POST'] }],
    ['/api/users/[id]', 'api', 'app/api/users/[id]/route.ts', { methods: ['DELETE', 'PATCH'] }],
    ['/blog', 'page', 'app/blog/page.tsx'],
    ['/blog/[slug]', 'page', 'app/blog/[slug]/page.tsx'],
    ['/blog/[slug]/opengraph-image', 'metadata', 'app/blog/[slug]/opengraph-image.tsx'],
    ['/build', 'page', 'app/build/page.tsx'],
    ['/contact', 'api', 'app/(marketing)/contact/route.ts', { methods: ['POST'] }],
    ['/dashboard', 'layout', 'app/dashboard/layout.tsx'],
    ['/dashboard', 'page', 'app/dashboard/page.tsx'],
    ['/dashboard', 'loading', 'app/dashboard/loading.tsx'],
    ['/dashboard', 'error', 'app/dashboard/error.tsx'],
    ['/dashboard', 'page', 'app/dashboard/@analytics/page.tsx', { slot: 'analytics' }],
    ['/dashboard', 'default', 'app/dashboard/@analytics/default.tsx', { slot: 'analytics' }],
    ['/dashboard/settings', 'page', 'app/dashboard/settings/page.tsx'],
    ['/docs/[...slug]', 'page', 'app/docs/[...slug]/page.tsx'],
    ['/feed', 'page', 'app/feed/page.tsx'],
    ['/login', 'page', 'app/login/page.tsx'],
    [
      '/login',
      'page',
      'app/@modal/(.)login/page.tsx',
      { slot: 'modal', intercept: { marker: '(.)', from: '/' } },
    ],
    ['/photo/[id]', 'page', 'app/photo/[id]/page.tsx'],
    [
      '/photo/[id]',
      'page',
      'app/feed/(..)photo/[id]/page.tsx',
      { intercept: { marker: '(..)', from: '/feed' } },
    ],
    [
      '/photo/[id]',
      'page',
      'app/@modal/(...)photo/[id]/page.tsx',
      { slot: 'modal', intercept: { marker: '(...)', from: '/' } },
    ],
    ['/pricing', 'page', 'app/(marketing)/pricing/page.mdx'],
    ['/robots.txt', 'metadata', 'app/robots.ts'],
    ['/shop/[[...filters]]', 'page', 'app/shop/[[...filters]]/page.tsx'],
    ['/sitemap.xml', 'metadata', 'app/sitemap.ts'],
  ];

  it('lists every route by Next.js rules', async () => {
    const r = (await callTool('get_routes', {}, fixture('next-app'))) as any;
    expect(rows(r)).toEqual(want);
    expect(r.pages).toBe(18);
    expect(r.apiRoutes).toBe(3);
    expect(r.total).toBe(36);
    expect(r.apps).toEqual([
      {
        name: 'next-app',
        root: '.',
        via: 'next.config',
        appDirectory: 'app',
        pages: 18,
        apiRoutes: 3,
        total: 36,
      },
    ]);
    for (const x of r.routes) expect([x.app, x.router]).toEqual(['next-app', 'app']);
    expect(r.warnings).toBeUndefined();
    expect(r.note).toBeUndefined();
  });

  it('includeApi: false leaves out route handlers', async () => {
    const r = (await callTool('get_routes', { includeApi: false }, fixture('next-app'))) as any;
    expect(rows(r)).toEqual(want.filter((w) => w[1] !== 'api'));
    expect([r.pages, r.apiRoutes, r.total]).toEqual([18, 0, 33]);
  });

  it('an explicit path names the one directory to scan', async () => {
    const r = (await callTool('get_routes', { appDirectory: 'app/dashboard' }, fixture('next-app'))) as any;
    expect(rows(r)).toEqual([
      ['/', 'layout', 'app/dashboard/layout.tsx'],
      ['/', 'page', 'app/dashboard/page.tsx'],
      ['/', 'loading', 'app/dashboard/loading.tsx'],
      ['/', 'error', 'app/dashboard/error.tsx'],
      ['/', 'page', 'app/dashboard/@analytics/page.tsx', { slot: 'analytics' }],
      ['/', 'default', 'app/dashboard/@analytics/default.tsx', { slot: 'analytics' }],
      ['/settings', 'page', 'app/dashboard/settings/page.tsx'],
    ]);
  });
});

describe('get_routes on the Pages Router fixture', () => {
  it('lists pages and API routes; _app, _document, _error, tests and .d.ts excluded', async () => {
    const r = (await callTool('get_routes', {}, fixture('pages-app'))) as any;
    expect(rows(r)).toEqual([
      ['/', 'page', 'pages/index.tsx'],
      ['/404', 'not-found', 'pages/404.tsx'],
      ['/500', 'error', 'pages/500.tsx'],
      ['/about', 'page', 'pages/about.jsx'],
      ['/api', 'api', 'pages/api/index.ts'],
      ['/api/hello', 'api', 'pages/api/hello.ts'],
      ['/api/users/[id]', 'api', 'pages/api/users/[id].ts'],
      ['/blog', 'page', 'pages/blog/index.tsx'],
      ['/blog/[slug]', 'page', 'pages/blog/[slug].tsx'],
      ['/docs/[...path]', 'page', 'pages/docs/[...path].js'],
      ['/settings/[[...tab]]', 'page', 'pages/settings/[[...tab]].tsx'],
    ]);
    expect([r.pages, r.apiRoutes, r.total]).toEqual([6, 3, 11]);
    expect(r.apps).toEqual([
      {
        name: 'pages-app',
        root: '.',
        via: 'next.config',
        pagesDirectory: 'pages',
        pages: 6,
        apiRoutes: 3,
        total: 11,
      },
    ]);
    for (const x of r.routes) expect(x.router).toBe('pages');
  });
  it("appDirectory 'pages' means the Pages Router only", async () => {
    const r = (await callTool(
      'get_routes',
      { appDirectory: 'pages', includeApi: false },
      fixture('pages-app'),
    )) as any;
    expect(r.routes.map((x: any) => x.path)).toEqual([
      '/',
      '/404',
      '/500',
      '/about',
      '/blog',
      '/blog/[slug]',
      '/docs/[...path]',
      '/settings/[[...tab]]',
    ]);
  });
});

describe('get_routes on the monorepo fixture', () => {
  it('finds every Next.js app and groups the routes by app', async () => {
    const r = (await callTool('get_routes', {}, fixture('monorepo'))) as any;
    expect(r.routes.map((x: any) => [x.app, x.router, x.path, x.type, x.filePath])).toEqual([
      ['@acme/docs', 'pages', '/', 'page', 'apps/docs/pages/index.tsx'],
      ['@acme/docs', 'pages', '/api/search', 'api', 'apps/docs/pages/api/search.ts'],
      ['@acme/docs', 'pages', '/guide/[slug]', 'page', 'apps/docs/pages/guide/[slug].tsx'],
      ['@acme/web', 'app', '/', 'layout', 'apps/web/src/app/layout.tsx'],
      ['@acme/web', 'app', '/', 'page', 'apps/web/src/app/page.tsx'],
      ['@acme/web', 'app', '/api/health', 'api', 'apps/web/src/app/api/health/route.ts'],
      ['@acme/web', 'app', '/pricing', 'page', 'apps/web/src/app/pricing/page.tsx'],
      ['@acme/admin', 'app', '/', 'page', 'packages/admin/app/page.tsx'],
      ['@acme/admin', 'app', '/users', 'page', 'packages/admin/app/users/page.tsx'],
    ]);
    expect([r.pages, r.apiRoutes, r.total]).toEqual([6, 2, 9]);
    expect(r.apps).toEqual([
      {
        name: '@acme/docs',
        root: 'apps/docs',
        via: 'package.json',
        pagesDirectory: 'apps/docs/pages',
        pages: 2,
        apiRoutes: 1,
        total: 3,
      },
      {
        name: '@acme/web',
        root: 'apps/web',
        via: 'next.config',
        appDirectory: 'apps/web/src/app',
        pages: 2,
        apiRoutes: 1,
        total: 4,
      },
      {
        name: '@acme/admin',
        root: 'packages/admin',
        via: 'directory',
        appDirectory: 'packages/admin/app',
        pages: 2,
        apiRoutes: 0,
        total: 2,
      },
    ]);
  });
  it('a path to one app directory scans only that app', async () => {
    const r = (await callTool(
      'get_routes',
      { appDirectory: 'apps/web/src/app' },
      fixture('monorepo'),
    )) as any;
    expect(r.routes.map((x: any) => [x.app, x.path, x.type])).toEqual([
      ['@acme/web', '/', 'layout'],
      ['@acme/web', '/', 'page'],
      ['@acme/web', '/api/health', 'api'],
      ['@acme/web', '/pricing', 'page'],
    ]);
    expect(r.apps).toEqual([
      {
        name: '@acme/web',
        root: 'apps/web',
        via: 'next.config',
        appDirectory: 'apps/web/src/app',
        pages: 2,
        apiRoutes: 1,
        total: 4,
      },
    ]);
  });
});

describe('get_routes: discovery rules (in memory)', () => {
  const page = 'export default function P() { return null; }\n';
  const cases: Array<[string, MemoryTree, Record<string, unknown>, Array<[string, string, string, string]>]> =
    [
      [
        'both routers in one app',
        {
          'package.json': '{"dependencies":{"next":"15"}}',
          'app/page.tsx': page,
          'pages/legacy.tsx': page,
          'pages/api/old.ts': page,
        },
        {},
        [
          ['repo', 'app', '/', 'app/page.tsx'],
          ['repo', 'pages', '/api/old', 'pages/api/old.ts'],
          ['repo', 'pages', '/legacy', 'pages/legacy.tsx'],
        ],
      ],
      [
        'src/app found',
        { 'src/app/page.tsx': page, 'src/app/x/page.tsx': page },
        {},
        [
          ['repo', 'app', '/', 'src/app/page.tsx'],
          ['repo', 'app', '/x', 'src/app/x/page.tsx'],
        ],
      ],
      [
        'src/app ignored when app/ exists at the root',
        { 'app/page.tsx': page, 'src/app/other/page.tsx': page },
        {},
        [['repo', 'app', '/', 'app/page.tsx']],
      ],
      [
        'src/pages ignored when app/ exists at the root',
        { 'app/page.tsx': page, 'src/pages/x.tsx': page },
        {},
        [['repo', 'app', '/', 'app/page.tsx']],
      ],
      [
        'a custom app directory name',
        { 'next.config.js': '', 'routes/page.tsx': page, 'app/page.tsx': page },
        { appDirectory: 'routes' },
        [['repo', 'app', '/', 'routes/page.tsx']],
      ],
      [
        'a package with app/ but no Next.js route files is not an app (Remix)',
        { 'package.json': '{"name":"remix"}', 'app/root.tsx': page, 'app/routes/_index.tsx': page },
        {},
        [],
      ],
      [
        'two apps with one package name are told apart by folder',
        {
          'a/package.json': '{"name":"web","dependencies":{"next":"1"}}',
          'a/app/page.tsx': page,
          'b/package.json': '{"name":"web","dependencies":{"next":"1"}}',
          'b/app/page.tsx': page,
        },
        {},
        [
          ['a', 'app', '/', 'a/app/page.tsx'],
          ['b', 'app', '/', 'b/app/page.tsx'],
        ],
      ],
      [
        'a broken package.json still marks a package',
        { 'web/package.json': '{not json', 'web/app/page.tsx': page },
        {},
        [['web', 'app', '/', 'web/app/page.tsx']],
      ],
      [
        'node_modules are never searched',
        { 'node_modules/next/app/page.tsx': page, 'app/page.tsx': page },
        {},
        [['repo', 'app', '/', 'app/page.tsx']],
      ],
    ];
  it.each(cases)('%s', async (_n, tree, args, want) => {
    const r = (await callTool('get_routes', args, memory(tree))) as any;
    expect(r.routes.map((x: any) => [x.app, x.router, x.path, x.filePath])).toEqual(want);
  });

  it('says when there is no Next.js app', async () => {
    const r = (await callTool('get_routes', {}, memory({ 'src/index.ts': 'export {}' }))) as any;
    expect(r).toEqual({
      routes: [],
      pages: 0,
      apiRoutes: 0,
      total: 0,
      apps: [],
      note: 'No Next.js app found: looked for next.config.*, package.json files depending on next, and "app" or pages directories (also under src/).',
    });
  });

  it('lists a configured app without route files, with a note', async () => {
    const r = (await callTool(
      'get_routes',
      {},
      memory({ 'next.config.mjs': '', 'app/globals.css': '' }),
    )) as any;
    expect(r.apps).toEqual([
      { name: 'repo', root: '.', via: 'next.config', appDirectory: 'app', pages: 0, apiRoutes: 0, total: 0 },
    ]);
    expect(r.note).toBe('The Next.js apps found have no route files.');
  });

  it('reports an interception that climbs above the root', async () => {
    const r = (await callTool('get_routes', {}, memory({ 'app/(..)photo/page.tsx': page }))) as any;
    expect(r.routes.map((x: any) => [x.path, x.intercept])).toEqual([
      ['/photo', { marker: '(..)', from: '/' }],
    ]);
    expect(r.warnings).toEqual([
      'Invalid interception route app/(..)photo/page.tsx: (..) climbs above the root',
    ]);
  });

  it('prefixes paths and app folders by root name in a workspace of several roots', async () => {
    const ws = new Workspace([
      new MemorySource({ 'app/page.tsx': page }, { name: 'one' }),
      new MemorySource({ 'pages/index.tsx': page }, { name: 'two' }),
    ]);
    const r = (await callTool('get_routes', {}, { workspace: ws })) as any;
    expect(r.routes.map((x: any) => [x.app, x.path, x.filePath])).toEqual([
      ['one', '/', 'one/app/page.tsx'],
      ['two', '/', 'two/pages/index.tsx'],
    ]);
    expect(r.apps.map((a: any) => [a.root, a.appDirectory ?? a.pagesDirectory])).toEqual([
      ['one', 'one/app'],
      ['two', 'two/pages'],
    ]);
  });

  it('needs no parsers', async () => {
    const r = (await callTool(
      'get_routes',
      {},
      { workspace: new Workspace([new MemorySource({ 'app/page.tsx': page })]) },
    )) as any;
    expect(r.total).toBe(1);
  });

  const bad: Array<[string, unknown, string, string, RegExp]> = [
    [
      'appDirectory not a string',
      { appDirectory: 1 },
      'InvalidArgument',
      'appDirectory',
      /appDirectory must be a string/,
    ],
    ['an empty appDirectory', { appDirectory: ' ' }, 'InvalidArgument', 'appDirectory', /must not be empty/],
    ["appDirectory '.'", { appDirectory: './' }, 'InvalidArgument', 'appDirectory', /below the root/],
    [
      'appDirectory escaping the root',
      { appDirectory: '../other/app' },
      'PathOutsideRoot',
      'appDirectory',
      /appDirectory escapes the root/,
    ],
    [
      'an absolute appDirectory outside the root',
      { appDirectory: '/etc/app' },
      'PathOutsideRoot',
      'appDirectory',
      /outside every root/,
    ],
    [
      'an appDirectory path that does not exist',
      { appDirectory: 'apps/none/app' },
      'NotFound',
      'appDirectory',
      /appDirectory not found: "apps\/none\/app"/,
    ],
    [
      'an appDirectory path naming a file',
      { appDirectory: 'app/page.tsx' },
      'NotFound',
      'appDirectory',
      /appDirectory not found/,
    ],
    [
      'includeApi not a boolean',
      { includeApi: 'yes' },
      'InvalidArgument',
      'includeApi',
      /includeApi must be a boolean/,
    ],
    ['arguments that are not an object', 'app', 'InvalidArgument', '(arguments)', /JSON object/],
  ];
  it.each(bad)('refuses %s', async (_n, args, code, field, message) => {
    const e = await refusal(callTool('get_routes', args, memory({ 'app/page.tsx': page })));
    expect(e.code).toBe(code);
    expect(e.data.field).toBe(field);
    expect(e.message).toMatch(message);
  });
});

// ---------------------------------------------------------------------------------------
