import type { ErrorObject } from 'ajv';

// Apart from the registry so that code reporting errors does not pull ajv's compiler into a bundle.

/**
 * One line naming every problem ajv found, with the field path, e.g. `body: name is required`.
 * @example describeSchemaErrors(validate.errors, 'body')
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, subject: string): string {
  if (!errors || errors.length === 0) return `${subject}: invalid`;
  // One clause per field: "" breaks both minLength and `\S`, and one reason says what is wrong with it.
  // A missing or unknown member is a clause of its own (its name is in the error, not the path).
  const seen = new Set<string>();
  const distinct = errors.filter((error) => {
    const own = error.keyword === 'required' || error.keyword === 'additionalProperties';
    const key = own ? `${error.instancePath} ${JSON.stringify(error.params)}` : error.instancePath;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // A hostile body can break a rule thousands of times; the first few name the problem well enough.
  const named = distinct.slice(0, MAX_NAMED_ERRORS).map((error) => describeSchemaError(error, subject));
  const more = distinct.length - named.length;
  const message = named.join('; ') + (more > 0 ? `; and ${more} more` : '');
  // The spec bounds Error.message (maxLength 1024): a long message is cut, never the answer broken.
  return message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE - 1)}…`;
}

const MAX_NAMED_ERRORS = 5;
const MAX_MESSAGE = 1024;
/** A member name a client sent is echoed at most this long: enough to recognise it, never a body's worth. */
const MAX_NAME = 60;

const shortName = (name: string) => (name.length <= MAX_NAME ? name : `${name.slice(0, MAX_NAME - 1)}…`);

function describeSchemaError(error: ErrorObject, subject: string): string {
  const field = shortName(error.instancePath.replace(/^\//, '').replace(/\//g, '.'));
  const at = field ? `${field} ` : '';
  switch (error.keyword) {
    case 'required':
      return `${subject}: ${field ? `${field}.` : ''}${shortName((error.params as { missingProperty: string }).missingProperty)} is required`;
    case 'additionalProperties':
      return `${subject}: ${field ? `${field}.` : ''}${shortName((error.params as { additionalProperty: string }).additionalProperty)} is not an allowed field`;
    case 'pattern': {
      const { pattern } = error.params as { pattern: string };
      // `\S` is how the spec says "not only whitespace"; say it in words.
      return `${subject}: ${at}${pattern === '\\S' ? 'must not be blank' : `must match ${pattern}`}`;
    }
    default:
      return `${subject}: ${at}${error.message ?? 'is invalid'}`;
  }
}
