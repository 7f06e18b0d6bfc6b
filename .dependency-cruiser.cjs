/**
 * The architecture rules that need the whole import graph, checked on every `npm run lint`
 * (ARCHITECTURE.md, "Layout"): no import cycle, a module reaches another module's data only
 * through that module's service, never its repository, and the fields module imports neither
 * records nor tables. Rules about single imports (Fastify in services, shared/ importing
 * nothing, routes and the CLI never touching a repository) are ESLint's (eslint.config.js).
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
      name: 'fields-import-neither-records-nor-tables',
      severity: 'error',
      comment: 'The field model is imported by tables, records, views and comments, and imports none of them.',
      from: { path: '^src/modules/fields/' },
      to: { path: '^src/modules/(records|tables|views|comments)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
