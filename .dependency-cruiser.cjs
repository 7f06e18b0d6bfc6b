/**
 * The architecture, checked on every `npm run lint` (ARCHITECTURE.md, "Layout"): no import
 * cycles; dependencies point inward; a module reaches another module's data only through that
 * module's service, never its repository.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle makes load order matter and modules impossible to take apart.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment: "A module reads another module's tables through that module's service (route → service → repository).",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.+[.]repository[.]ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'repository-only-from-its-module',
      severity: 'error',
      comment: 'Routes, the CLI and the HTTP layer call services, never repositories.',
      from: { path: '^src/(cli|http)/|[.]routes[.]ts$' },
      to: { path: '[.]repository[.]ts$' },
    },
    {
      name: 'shared-imports-no-module',
      severity: 'error',
      comment: 'shared/ is the innermost layer.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(modules|http|cli|db)/' },
    },
    {
      name: 'fields-import-neither-records-nor-tables',
      severity: 'error',
      comment: 'The field model is imported by tables, records, views and comments, and imports none of them.',
      from: { path: '^src/modules/fields/' },
      to: { path: '^src/modules/(records|tables|views|comments)/' },
    },
    {
      name: 'services-without-fastify',
      severity: 'error',
      comment: 'A service never sees HTTP.',
      from: { path: '[.]service[.]ts$' },
      to: { path: 'node_modules/fastify' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
