// Browser code imports the spec as a module; demo/bundle/openapi-yaml-plugin.ts inlines it at build time.
declare module '*.yaml' {
  const document: unknown;
  export default document;
}
