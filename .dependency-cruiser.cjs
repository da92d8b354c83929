// The import rules of ARCHITECTURE.md ("Imports flow one way"), checked by `npm run lint` after ESLint:
// no import cycle, type-only imports included (tsPreCompilationDeps), and imports only down the layers
//   src/engine <- src/api <- src/state <- src/runtime <- src/shell
// with the server taking from src/ only the engine (the contract's generated types live there too);
// the sandbox gateway (sandbox-gateway/, a program of its own) imports nothing of the portal, and the
// server takes from it only its wire protocol; scripts/, build/ and tests/ may import anything.
// Paths are relative to where it runs (the repository root;
// tests/unit/lint/dependencies.test.ts runs it in tests/fixtures/lint/, which the root run leaves out).
const fs = require('node:fs');

const layer = (name, below) => ({
  name: `${name}-imports-below`,
  comment: `src/${name} imports only ${below.length ? below.map((b) => `src/${b}`).join(', ') : 'itself'} of src/ (ARCHITECTURE.md)`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  to: { path: '^(src|server|scripts|tests)/', pathNot: `^src/(${[name, ...below].join('|')})/` },
});

/** The server's domains, lowest first (ARCHITECTURE.md, "Domains"). */
const DOMAINS = ['provider', 'access', 'people', 'communication', 'attendance', 'billing', 'enrolment', 'payments'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle (type-only imports count): move the shared part down into a module both import',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('engine', []),
    layer('api', ['engine']),
    layer('state', ['engine', 'api']),
    layer('runtime', ['engine', 'api', 'state']),
    layer('shell', ['engine', 'api', 'state', 'runtime']),
    {
      name: 'server-imports-engine-only',
      comment: 'the server imports only src/engine of src/ (ARCHITECTURE.md)',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/', pathNot: '^src/engine/' },
    },
    // the server's domains (server/domains/<area>/), lowest first: each imports only those below it, and
    // none imports the handlers (server/handlers/), which stand over all of them
    ...DOMAINS.map((name, i) => ({
      name: `domain-${name}-imports-below`,
      comment: `server/domains/${name} imports only the domains below it (${DOMAINS.slice(0, i).join(', ') || 'none'}) and never the handlers (ARCHITECTURE.md)`,
      severity: 'error',
      from: { path: `^server/domains/${name}/` },
      to: { path: '^server/(domains|handlers)/', pathNot: `^server/domains/(${DOMAINS.slice(0, i + 1).join('|')})/` },
    })),
    {
      name: 'server-below-domains',
      comment: "the server's own modules (database, auth, outbox, jobs ...) sit below the domains: only the app, the registrar, the jobs' registry and the seeds import a domain or the handlers",
      severity: 'error',
      from: { path: '^server/', pathNot: '^server/(domains|handlers)/|^server/(app|registrar|boot|main)\\.ts$|^server/jobs/registry\\.ts$|^server/seed/' },
      to: { path: '^server/(domains|handlers)/' },
    },
    {
      name: 'sandbox-gateway-standalone',
      comment: 'the sandbox gateway is its own program: it imports nothing of the portal (ARCHITECTURE.md)',
      severity: 'error',
      from: { path: '^sandbox-gateway/' },
      to: { path: '^(src|server|scripts|build|tests)/' },
    },
    {
      name: 'server-imports-sandbox-protocol-only',
      comment: 'the server speaks to the sandbox gateway through its protocol only (sandbox-gateway/protocol.ts); it starts the program by its path',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^sandbox-gateway/', pathNot: '^sandbox-gateway/protocol\\.ts$' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to no file',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^virtual:' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules/' },
    exclude: { path: ['node_modules/', '^(dist|coverage|test-results|tests/fixtures/lint)/'] },
    // `import type` counts: a cycle through types is still a cycle
    tsPreCompilationDeps: true,
    ...(fs.existsSync('tsconfig.json') ? { tsConfig: { fileName: 'tsconfig.json' } } : {}),
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
