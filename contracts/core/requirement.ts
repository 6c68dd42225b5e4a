/**
 * The sentence that makes a rule or promise binding, quoted word for word with whose requirement it is.
 * Only a requirement on the server (the spec's own words, or an RFC's MUST whose subject is the origin
 * server, the recipient or the resource server) may fail a run; a requirement on the sender, a SHOULD
 * or guidance is a warning unless `--strict` (`contracts/rules/requirement-problems.test.ts` holds the tables to it).
 */
export interface Requirement {
  /**
   * Word for word: sentences of `spec/openapi.yaml`'s prose, read from the spec by their words
   * (`theSpecSays` in `contracts/sentences/spec-sentences.ts`, never copied), or of the RFC named in `where`.
   */
  quote: string;
  /** `spec/openapi.yaml`, or the document and section: `RFC 9110 §6.6.1`. */
  where: string;
  /** Whose requirement the quote states: the server's, the sender's, or nobody's (guidance, hardening). */
  binds: 'server' | 'sender' | 'nobody';
}

/** Where a quote of the spec's own prose stands. */
export const THE_SPEC = 'spec/openapi.yaml';
