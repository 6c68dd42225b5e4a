// The import rules of the repository, checked by `npm run deps` (dependency-cruiser) in CI.
//
// The contract suite (contracts/) is built in layers, lowest first. A folder may import its own files
// and the folders of lower layers, never a folder of its own layer or a higher one: the words every
// layer shares sit at the bottom (core/), so nothing has to reach up or around for them.
// docs/explanation/design.md ("The layers of the contract suite") says what each layer holds.
const LAYERS = [
  ['core'], // the shared words and pure judgements: exchanges, capabilities, limits, clock, windows, header verdicts, the spec's operations
  ['conformance', 'transport', 'coverage', 'sentences'], // reading the spec and the wire: validators, sending, coverage, the spec's prose
  ['generate'], // requests generated from the spec
  ['protocol', 'rules'], // HTTP's equivalences and distinctions over generated requests; the rules under the spec (RFCs, OWASP) as data
  ['model'], // the model of the spec's promises across exchanges
  ['checks'], // the named checks, their registry and the seeded property they run
  ['targets', 'broken-variants'], // what a run is pointed at: the fake, Prism, a URL, the fake broken on purpose
  ['runner'], // runs checks against a target
  ['report'], // turns results into terminal lines, JUnit, JSON, tables
  ['watch'], // the judging proxy and replay
  ['jest', 'cli'], // the entry points: the suite as jest tests, the command line
];

// Tests may put any layers together (that is what an integration test is for); the layers bind product code.
const TESTS = '\\.test\\.ts$';

const layerRules = LAYERS.flatMap((layer, level) => {
  const allowed = LAYERS.slice(0, level).flat();
  return layer.map((folder) => ({
    name: `layer-${folder}`,
    severity: 'error',
    comment:
      `contracts/${folder}/ may import only ${allowed.length === 0 ? 'itself' : `itself and ${allowed.join(', ')}`}: ` +
      'an import up or sideways breaks the layers (move the shared word down into contracts/core/ instead)',
    from: { path: `^contracts/${folder}/`, pathNot: TESTS },
    to: {
      path: '^contracts/',
      pathNot: [folder, ...allowed].map((name) => `^contracts/${name}/`),
    },
  }));
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'contracts-folder-has-a-layer',
      severity: 'error',
      comment: 'every folder of contracts/ takes a place in LAYERS above, so that the layer rules see its imports',
      from: { path: '^contracts/[^/]+/', pathNot: [TESTS, ...LAYERS.flat().map((folder) => `^contracts/${folder}/`)] },
      to: {},
    },
    {
      name: 'core-imports-only-the-spec',
      severity: 'error',
      comment: 'contracts/core/ is the floor: besides itself it may import only the spec (spec/), Node and packages',
      from: { path: '^contracts/core/', pathNot: TESTS },
      to: { path: '^(mocks|test|scripts|bench|demo|examples|contracts/(?!core/))' },
    },
    {
      name: 'fake-does-not-import-the-suite',
      severity: 'error',
      comment: 'the fake (mocks/) is a product of its own: it may not depend on the contract suite or on test support',
      from: { path: '^mocks/', pathNot: TESTS },
      to: { path: '^(contracts|test)/' },
    },
    {
      name: 'product-does-not-import-tests',
      severity: 'error',
      comment:
        'test files and test support (test/) are for tests: product code (mocks/, contracts/, spec/) may not import them',
      from: { path: '^(mocks|contracts|spec)/', pathNot: TESTS },
      to: { path: [TESTS, '^test/'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle means no layer order explains the imports: break it by moving the shared part down',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'an import dependency-cruiser cannot resolve would escape every rule above',
      from: { path: '^(mocks|contracts|spec|test)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // Type-only imports count: a type imported upward ties the layers as much as a value does.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
