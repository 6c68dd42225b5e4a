import type { ContractRequest } from '../core/exchange.js';
import { operationOfRequest, operationsOnPath, pathUnder } from '../core/spec-operations.js';
import { methodEntry } from '../generate/protocol-requests.js';
import { needsRawSocket } from '../core/described-bucket.js';
import { requestEvidence } from '../generate/schema-evidence.js';
import { CONCURRENCY_ENTRIES } from './evidence-catalogue.js';
import { framingEntry } from '../protocol/grammar-surroundings.js';
import { pathAsSent, pathSpellings } from '../protocol/path-spellings.js';

let spellings: ReadonlyMap<string, string> | undefined;

/** The entry of each other spelling of a spec path, by the path as sent (`/categories/` to `path /categories: trailing-slash`). */
function spellingEntries(): ReadonlyMap<string, string> {
  spellings ??= new Map(pathSpellings().map(({ path, id }) => [path, id]));
  return spellings;
}

/** A body framed with `Content-Length`, as every client sends one unless told to send it in chunks. */
const framedByLength = (request: ContractRequest) =>
  (request.json !== undefined || request.rawBody !== undefined) && !request.wire?.chunked;

/** Answers that say the request never reached what it was meant to try: no key admitted it, or no quota. */
const NOT_REACHED = new Set([401, 429]);

/**
 * The entries of the evidence catalogue a run's requests tried against one target, read from the
 * requests themselves (whichever check sent them) once they were answered: what a body or a path
 * parameter breaks or holds, and whether a read or a create went out while another was in flight.
 * @example const answered = ledger.sending(request); answered(exchange.status);
 */
export class EvidenceLedger {
  readonly #baseUrl: string;
  readonly #tried = new Set<string>();
  readonly #inFlight = { reads: 0, creates: 0 };

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  /** Every entry tried so far. */
  get tried(): ReadonlySet<string> {
    return this.#tried;
  }

  /** What a request as a check wrote it tries (before the run marks it); recorded once answered by `answered`. */
  evidenceOf(request: ContractRequest): string[] {
    const url = `${this.#baseUrl}${request.path}`;
    const operation = operationOfRequest(request.method, url, this.#baseUrl);
    const spelling = spellingEntries().get(pathAsSent(url, this.#baseUrl) ?? '');
    return [
      ...(operation ? requestEvidence(request, operation) : []),
      ...(operation && framedByLength(request) ? [framingEntry('Content-Length')] : []),
      ...(spelling && request.method === 'GET' ? [spelling] : []),
      ...(request.tries ?? []),
    ];
  }

  /** Records entries a check tried (rules it put to the test, with what its requests tried). */
  add(entries: Iterable<string>): void {
    for (const entry of entries) this.#tried.add(entry);
  }

  /** Records entries a request tried, if its answer shows it reached the service; returns those recorded. */
  record(entries: readonly string[], status: number): readonly string[] {
    if (NOT_REACHED.has(status)) return [];
    for (const entry of entries) this.#tried.add(entry);
    return entries;
  }

  /**
   * A request is going out on the wire; call what it returns with its status once answered (or with
   * nothing if it never was). A read or a create sent while another of its kind is in flight is a
   * burst from several clients.
   */
  sending(request: ContractRequest): (status?: number) => readonly string[] {
    const url = `${this.#baseUrl}${request.path}`;
    const operation = operationOfRequest(request.method, url, this.#baseUrl);
    if (!operation) {
      // A method token a spec path lacks, answered past the key: that token's entry.
      const path = pathUnder(url, this.#baseUrl);
      const onSpecPath = path !== undefined && operationsOnPath(path) !== undefined;
      // A connection closed on a token an HTTP parser may refuse (`CONNECT /categories`) is its answer too.
      const refusable = needsRawSocket(request.method, false);
      return (status) =>
        onSpecPath && (status !== undefined || refusable)
          ? this.record([methodEntry(request.method)], status ?? 0)
          : [];
    }
    const kind = operation.method === 'GET' || operation.method === 'HEAD' ? 'reads' : 'creates';
    this.#inFlight[kind] += 1;
    const together = this.#inFlight[kind] >= 2;
    return (status) => {
      this.#inFlight[kind] -= 1;
      // Creates race only when both are stored: a burst of refused writes shows nothing of it.
      if (together && status !== undefined && (kind === 'reads' || status < 300))
        return this.record([CONCURRENCY_ENTRIES[kind]], status);
      return [];
    };
  }
}
