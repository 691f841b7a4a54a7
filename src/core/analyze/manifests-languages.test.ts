/** Manifests of other ecosystems: Cargo.toml, go.mod, Python (pyproject, requirements, setup.cfg), Gemfile, pom.xml, Gradle; bad input read as far as it goes. */
import { describe, expect, it } from 'vitest';
import { parseManifest, pep508, type Dependency, type Manifest } from './manifests';

function read(path: string, text: string): Manifest {
  const m = parseManifest(path, text);
  if (!m) throw new Error(`${path} is not a manifest`);
  return m;
}

const dep = (name: string, version: string | null, scope: Dependency['scope'] = 'runtime'): Dependency => ({
  name,
  version,
  scope,
});

describe('cargo', () => {
  const text = `# the server crate
[package]
name = "acme-server"
version = "0.7.2"
edition = "2021"

[lib]
path = "src/lib.rs"

[[bin]]
name = "acme"
path = "src/bin/acme.rs"

[[bin]]
name = "acme-admin"
path = "src/bin/admin.rs"

[dependencies]
serde = { version = "1.0", features = ["derive"] }
tokio = { version = "1", features = [
  "macros",
  "rt-multi-thread", # comment inside an array
] }
anyhow = "1.0.86"
acme-core = { path = "../core" }
rustls = { version = "0.23", optional = true }
log.workspace = true

[dependencies.reqwest]
version = "0.12"
default-features = false

[dev-dependencies]
proptest = "1.4"

[build-dependencies]
cc = "1"

[target.'cfg(windows)'.dependencies]
winapi = { version = "0.3", features = ["winuser"] }

[target."cfg(unix)".dev-dependencies]
nix = "0.29"

[workspace]
members = ["crates/*", "tools/xtask"]

[workspace.dependencies]
log = "0.4"
`;
  it('reads every dependency table, [lib] and [[bin]] paths and workspace members', () => {
    expect(read('Cargo.toml', text)).toEqual({
      path: 'Cargo.toml',
      kind: 'cargo',
      name: 'acme-server',
      version: '0.7.2',
      dependencies: [
        dep('serde', '1.0'),
        dep('tokio', '1'),
        dep('anyhow', '1.0.86'),
        dep('acme-core', null),
        dep('rustls', '0.23', 'optional'),
        dep('log', null),
        dep('reqwest', '0.12'),
        dep('proptest', '1.4', 'dev'),
        dep('cc', '1', 'build'),
        dep('winapi', '0.3'),
        dep('nix', '0.29', 'dev'),
      ],
      entryPoints: ['src/lib.rs', 'src/bin/acme.rs', 'src/bin/admin.rs'],
      workspaces: ['crates/*', 'tools/xtask'],
      errors: [],
    });
  });
  it('a line the TOML reader cannot read is an error; the rest is still read', () => {
    const m = read(
      'Cargo.toml',
      '[package]\nname = "x"\nversion = 1.2.3.4\n\n[dependencies]\nserde = "1"\nbroken = { version = "1"\nrand = "0.8"\n',
    );
    expect(m.name).toBe('x');
    expect(m.version).toBeNull();
    expect(m.errors).toEqual([
      'line 3: illegal character in numeric literal',
      'line 8: expected comma or end of structure', // the inline table left open on line 7 ran into it
    ]);
    expect(m.dependencies).toEqual([dep('serde', '1'), dep('rand', '0.8')]);
  });
});

describe('go.mod', () => {
  const text = `module github.com/acme/api

go 1.22.1

toolchain go1.22.4

require github.com/google/uuid v1.6.0

require (
\tgithub.com/gin-gonic/gin v1.10.0
\tgolang.org/x/sync v0.7.0 // indirect
\t"example.com/quoted" v0.1.0
)

replace github.com/acme/lib => ../lib

exclude (
\tgolang.org/x/net v0.1.0
)
`;
  it('reads the module path and both forms of require; indirect ones are runtime', () => {
    expect(read('go.mod', text)).toEqual({
      path: 'go.mod',
      kind: 'go',
      name: 'github.com/acme/api',
      version: null,
      module: 'github.com/acme/api',
      dependencies: [
        dep('github.com/google/uuid', 'v1.6.0'),
        dep('github.com/gin-gonic/gin', 'v1.10.0'),
        dep('golang.org/x/sync', 'v0.7.0'),
        dep('example.com/quoted', 'v0.1.0'),
      ],
      errors: [],
    });
  });
  it('a require line it cannot read, and an unterminated block', () => {
    const m = read('go.mod', 'module x\nrequire (\n  a.com/b v1 extra\n  c.com/d v2\n');
    expect(m.dependencies).toEqual([dep('c.com/d', 'v2')]);
    expect(m.errors).toEqual([
      'line 3: cannot read the requirement "a.com/b v1 extra"',
      'unterminated require ( block',
    ]);
  });
});

describe('python', () => {
  const pep621 = `[build-system]
requires = ["hatchling>=1.21"]
build-backend = "hatchling.build"

[project]
name = "acme-etl"
version = "1.4.0"
dependencies = [
    "requests[socks]>=2.31,<3",
    "pydantic (>=2.6)",
    'tomli >= 1.1 ; python_version < "3.11"',
    "acme-utils @ git+https://github.com/acme/utils.git@v2",
    "click",
]

[project.optional-dependencies]
test = ["pytest>=8", "pytest-cov"]
postgres = ["psycopg[binary]~=3.1"]

[project.scripts]
acme-etl = "acme_etl.cli:main"

[dependency-groups]
lint = ["ruff==0.4.4"]
`;
  it('pyproject.toml [project]: dependencies, optional groups, dependency groups, build requires, scripts', () => {
    expect(read('pyproject.toml', pep621)).toEqual({
      path: 'pyproject.toml',
      kind: 'python',
      name: 'acme-etl',
      version: '1.4.0',
      dependencies: [
        dep('requests', '>=2.31,<3'),
        dep('pydantic', '>=2.6'),
        dep('tomli', '>=1.1'),
        dep('acme-utils', 'git+https://github.com/acme/utils.git@v2'),
        dep('click', null),
        dep('pytest', '>=8', 'test'),
        dep('pytest-cov', null, 'test'),
        dep('psycopg', '~=3.1', 'optional'),
        dep('ruff', '==0.4.4', 'dev'),
        dep('hatchling', '>=1.21', 'build'),
      ],
      scripts: { 'acme-etl': 'acme_etl.cli:main' },
      errors: [],
    });
  });
  const poetry = `[tool.poetry]
name = "acme-bot"
version = "0.2.0"

[tool.poetry.dependencies]
python = "^3.11"
httpx = "^0.27"
uvloop = { version = "^0.19", optional = true, markers = "sys_platform != 'win32'" }
numpy = [
  { version = "<2", python = "<3.10" },
  { version = ">=2", python = ">=3.10" },
]

[tool.poetry.group.dev.dependencies]
black = "^24.3"

[tool.poetry.group.test.dependencies]
pytest-asyncio = { version = "^0.23" }

[tool.poetry.scripts]
bot = "acme_bot.main:run"
`;
  it('pyproject.toml [tool.poetry]: dependencies, optional ones, groups, scripts', () => {
    const m = read('services/bot/pyproject.toml', poetry);
    expect(m).toMatchObject({
      name: 'acme-bot',
      version: '0.2.0',
      scripts: { bot: 'acme_bot.main:run' },
      errors: [],
    });
    expect(m.dependencies).toEqual([
      dep('python', '^3.11'),
      dep('httpx', '^0.27'),
      dep('uvloop', '^0.19', 'optional'),
      dep('numpy', '<2'),
      dep('black', '^24.3', 'dev'),
      dep('pytest-asyncio', '^0.23', 'test'),
    ]);
  });
  it('requirements.txt: specifiers, extras, markers, comments, options and includes', () => {
    const text = [
      '# pinned by pip-compile',
      '-r base.txt',
      '--index-url https://pypi.example.com/simple',
      'Django==5.0.6  # the web framework',
      'celery[redis] >= 5.3, < 6',
      'gunicorn',
      "uvicorn[standard]==0.29.0 ; sys_platform != 'win32'",
      'cryptography==42.0.7 \\',
      '    --hash=sha256:abc123',
      '-e git+https://github.com/acme/lib.git#egg=acme-lib',
      'git+https://github.com/acme/tool.git#egg=acme-tool',
      './local/package',
      'not a requirement!',
      '',
    ].join('\n');
    const m = read('requirements.txt', text);
    expect(m.dependencies).toEqual([
      dep('Django', '==5.0.6'),
      dep('celery', '>=5.3,<6'),
      dep('gunicorn', null),
      dep('uvicorn', '==0.29.0'),
      dep('cryptography', '==42.0.7'),
      dep('acme-tool', null),
    ]);
    expect(m.errors).toEqual(['line 13: cannot read the requirement "not a requirement!"']);
  });
  it('requirements files named for dev or tests give that scope', () => {
    expect(read('requirements-dev.txt', 'black\n').dependencies).toEqual([dep('black', null, 'dev')]);
    expect(read('requirements/test.txt', 'pytest\n').dependencies).toEqual([dep('pytest', null, 'test')]);
    expect(read('requirements-latest.txt', 'x\n').dependencies).toEqual([dep('x', null)]);
  });
  it('setup.cfg: metadata, *_requires, extras and console scripts', () => {
    const text = `[metadata]
name = acme-cli
version = attr: acme_cli.__version__

[options]
packages = find:
install_requires =
    click>=8
    rich ; python_version >= "3.8"
tests_require = pytest
setup_requires =
    setuptools_scm

[options.extras_require]
yaml = pyyaml>=6

[options.entry_points]
console_scripts =
    acme = acme_cli.main:cli
`;
    expect(read('setup.cfg', text)).toMatchObject({
      name: 'acme-cli',
      version: null,
      dependencies: [
        dep('click', '>=8'),
        dep('rich', null),
        dep('pytest', null, 'test'),
        dep('setuptools_scm', null, 'build'),
        dep('pyyaml', '>=6', 'optional'),
      ],
      scripts: { acme: 'acme_cli.main:cli' },
      errors: [],
    });
  });
  it('a broken multi-line array (CRLF lines): the error, then the tables after it', () => {
    const text =
      '[project]\r\nname = "p"\r\ndependencies = [\r\n  "attrs",\r\n  oops,\r\n  "idna",\r\n\r\n[project.optional-dependencies]\r\ndocs = ["sphinx"]\r\n';
    const m = read('pyproject.toml', text);
    expect(m.errors).toEqual(['line 5: invalid value']);
    expect(m.name).toBe('p');
    expect(m.dependencies).toEqual([dep('sphinx', null, 'dev')]);
  });
  it('pep508 edge cases', () => {
    expect(pep508('zope.interface')).toEqual({ name: 'zope.interface', version: null });
    expect(pep508('foo (==1.0)')).toEqual({ name: 'foo', version: '==1.0' });
    expect(pep508('foo bar')).toBeNull();
    expect(pep508('')).toBeNull();
  });
});

describe('Gemfile', () => {
  const text = `source "https://rubygems.org"
ruby "3.3.0"

gem "rails", "~> 7.1.3"
gem 'pg', '~> 1.1', '>= 1.1.4' # the database
gem "puma", ">= 5.0"
gem "bootsnap", require: false
gem "tzinfo-data", platforms: %i[ windows jruby ]

group :development, :test do
  gem "debug", platforms: %i[ mri windows ]
  gem "rspec-rails"
end

group :development do
  gem "web-console"
  platforms :mri do
    gem "byebug"
  end
end

group :test do
  gem "capybara"
end

gem "rubocop", require: false, group: :development
gem "simplecov", groups: [:test]
gem "sidekiq", "7.2.4", :group => :production
`;
  it('reads gems with versions and scopes from group blocks and group options', () => {
    expect(read('Gemfile', text)).toEqual({
      path: 'Gemfile',
      kind: 'gem',
      name: null,
      version: null,
      dependencies: [
        dep('rails', '~> 7.1.3'),
        dep('pg', '~> 1.1, >= 1.1.4'),
        dep('puma', '>= 5.0'),
        dep('bootsnap', null),
        dep('tzinfo-data', null),
        dep('debug', null, 'dev'),
        dep('rspec-rails', null, 'dev'),
        dep('web-console', null, 'dev'),
        dep('byebug', null, 'dev'),
        dep('capybara', null, 'test'),
        dep('rubocop', null, 'dev'),
        dep('simplecov', null, 'test'),
        dep('sidekiq', '7.2.4'),
      ],
      errors: [],
    });
  });
});

describe('pom.xml', () => {
  const text = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.2.5</version>
  </parent>
  <groupId>com.acme</groupId>
  <artifactId>orders</artifactId>
  <version>1.0.0-SNAPSHOT</version>
  <modules>
    <module>orders-api</module>
    <module>orders-core</module>
  </modules>
  <properties>
    <jjwt.version>0.12.5</jjwt.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId>
    </dependency>
    <!-- <dependency><groupId>commented</groupId><artifactId>out</artifactId></dependency> -->
    <dependency>
      <groupId>io.jsonwebtoken</groupId>
      <artifactId>jjwt-api</artifactId>
      <version>\${jjwt.version}</version>
    </dependency>
    <dependency>
      <groupId>com.acme</groupId>
      <artifactId>orders-core</artifactId>
      <version>\${project.version}</version>
    </dependency>
    <dependency>
      <groupId>org.projectlombok</groupId>
      <artifactId>lombok</artifactId>
      <scope>provided</scope>
      <optional>true</optional>
    </dependency>
    <dependency>
      <groupId>com.h2database</groupId>
      <artifactId>h2</artifactId>
      <scope>runtime</scope>
      <optional>true</optional>
    </dependency>
    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-test</artifactId>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <dependencyManagement>
    <dependencies>
      <dependency><groupId>managed</groupId><artifactId>only</artifactId><version>1</version></dependency>
    </dependencies>
  </dependencyManagement>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <dependencies><dependency><groupId>plugin</groupId><artifactId>dep</artifactId></dependency></dependencies>
      </plugin>
    </plugins>
  </build>
  <profiles>
    <profile>
      <id>pg</id>
      <dependencies>
        <dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId><version>42.7.3</version></dependency>
      </dependencies>
    </profile>
  </profiles>
</project>
`;
  it('reads the project coordinates, its and its profiles’ dependencies with ${} versions, and modules', () => {
    expect(read('pom.xml', text)).toEqual({
      path: 'pom.xml',
      kind: 'maven',
      name: 'com.acme:orders',
      version: '1.0.0-SNAPSHOT',
      dependencies: [
        dep('org.springframework.boot:spring-boot-starter-web', null),
        dep('io.jsonwebtoken:jjwt-api', '0.12.5'),
        dep('com.acme:orders-core', '1.0.0-SNAPSHOT'),
        dep('org.projectlombok:lombok', null, 'build'),
        dep('com.h2database:h2', null, 'optional'),
        dep('org.springframework.boot:spring-boot-starter-test', null, 'test'),
        dep('org.postgresql:postgresql', '42.7.3'),
      ],
      workspaces: ['orders-api', 'orders-core'],
      errors: [],
    });
  });
  it('a broken pom: errors, and the dependencies before the break', () => {
    const m = read(
      'pom.xml',
      '<project><artifactId>x</artifactId><dependencies><dependency><groupId>a</groupId><artifactId>b</artifactId></dependency></oops>',
    );
    expect(m.name).toBe('x');
    expect(m.dependencies).toEqual([dep('a:b', null)]);
    expect(m.errors).toEqual([expect.stringMatching(/^unexpected <\/oops>/), 'unclosed <dependencies>']);
    expect(read('pom.xml', 'not xml').errors).toEqual(['no <project> element']);
  });
});

describe('gradle', () => {
  const groovy = `plugins {
    id 'org.springframework.boot' version '3.2.5'
    id 'java'
}

group = 'com.acme'
version = '0.3.1'

dependencies {
    implementation 'org.springframework.boot:spring-boot-starter-web'
    implementation "com.google.guava:guava:33.2.0-jre"
    api group: 'org.apache.commons', name: 'commons-lang3', version: '3.14.0'
    compileOnly 'org.projectlombok:lombok:1.18.32'
    annotationProcessor 'org.projectlombok:lombok:1.18.32'
    runtimeOnly 'org.postgresql:postgresql:42.7.3'
    testImplementation 'org.junit.jupiter:junit-jupiter:5.10.2'
    // implementation 'commented:out:1'
    /* testImplementation 'also:commented:1' */
    implementation project(':core')
    implementation files('libs/local.jar')
    implementation platform('org.springframework.cloud:spring-cloud-dependencies:2023.0.1')
}
`;
  it('build.gradle: configurations, string and map notation, platforms; comments and project deps skipped', () => {
    expect(read('build.gradle', groovy)).toEqual({
      path: 'build.gradle',
      kind: 'gradle',
      name: null,
      version: '0.3.1',
      dependencies: [
        dep('org.springframework.boot:spring-boot-starter-web', null),
        dep('com.google.guava:guava', '33.2.0-jre'),
        dep('org.apache.commons:commons-lang3', '3.14.0'),
        dep('org.projectlombok:lombok', '1.18.32', 'build'),
        dep('org.postgresql:postgresql', '42.7.3'),
        dep('org.junit.jupiter:junit-jupiter', '5.10.2', 'test'),
        dep('org.springframework.cloud:spring-cloud-dependencies', '2023.0.1'),
      ],
      errors: [],
    });
  });
  it('build.gradle.kts: call syntax, version catalogs, androidTest and map notation', () => {
    const kts = `dependencies {
    implementation("androidx.core:core-ktx:1.13.1")
    implementation(libs.androidx.lifecycle.runtime)
    testImplementation("junit:junit:4.13.2")
    androidTestImplementation("androidx.test.espresso:espresso-core:3.5.1")
    runtimeOnly(group = "ch.qos.logback", name = "logback-classic", version = "1.5.6")
    implementation(kotlin("stdlib"))
}`;
    expect(read('app/build.gradle.kts', kts).dependencies).toEqual([
      dep('androidx.core:core-ktx', '1.13.1'),
      dep('libs.androidx.lifecycle.runtime', null),
      dep('junit:junit', '4.13.2', 'test'),
      dep('androidx.test.espresso:espresso-core', '3.5.1', 'test'),
      dep('ch.qos.logback:logback-classic', '1.5.6'),
    ]);
  });
});
