// Prints the README's generated tables (checks, protocol equivalences, path distinctions, the model's promises, the spec's sentences, order-of-evaluation faults), to
// paste after a change to the registry, the equivalence table or the faults; `npm test` fails until then.
import { checkTableMarkdown, distinctionTableMarkdown, promiseTableMarkdown, sentenceTableMarkdown, equivalenceTableMarkdown, faultTableMarkdown } from '../contracts/report/readme-tables.js';

process.stdout.write(`${checkTableMarkdown()}\n\n${equivalenceTableMarkdown()}\n\n${distinctionTableMarkdown()}\n\n${promiseTableMarkdown()}\n\n${sentenceTableMarkdown()}\n\n${faultTableMarkdown()}\n`);
