import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PetStore } from './data.js';
import { sendError } from './errors.js';
import { refuseOtherMethods } from './method-not-allowed.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Headers every response of a deprecated operation carries. */
    deprecation?: Readonly<Record<string, string>>;
  }
}

/** `x-sunset` of getPetById. */
const SUNSET_MS = Date.parse('2027-07-01T00:00:00Z');
const SUNSET_HTTP_DATE = new Date(SUNSET_MS).toUTCString();
const NOTICE = 'https://api.petstore.example.com/docs/deprecations#get-pet';

/**
 * Deprecation (RFC 9745) is `@` and the epoch second of the deprecation: the spec gives no date
 * but its example, 1782864000 (2026-07-01T00:00:00Z). Sunset (RFC 8594) is the HTTP-date of
 * `x-sunset`. Link points at the deprecation notice (the spec's example) and, as the sunset policy,
 * the same page.
 */
export const GET_PET_DEPRECATION: Readonly<Record<string, string>> = {
  deprecation: '@1782864000',
  sunset: SUNSET_HTTP_DATE,
  link: `<${NOTICE}>; rel="deprecation", <${NOTICE}>; rel="sunset"`,
};

const MAX_ID = 9_223_372_036_854_775_807n;

/**
 * Checks a petId against the `Id` schema: a positive integer in decimal digits (no sign, leading
 * zero, exponent or hex, as in a JSON integer), at most 2^63 - 1. Returns what is wrong, if anything.
 */
export function idProblem(raw: string): string | undefined {
  const quoted = JSON.stringify(raw.length > 100 ? `${raw.slice(0, 100)}…` : raw);
  if (!/^[1-9][0-9]*$/.test(raw)) return `path: petId must be a positive integer, got ${quoted}`;
  if (raw.length > 19 || BigInt(raw) > MAX_ID) return `path: petId must be at most ${MAX_ID}, got ${quoted}`;
  return undefined;
}

export function petRoutes(api: FastifyInstance, store: PetStore, now: () => number): void {
  /** "After the sunset date (2027-07-01) the operation answers 410 `gone`", before validating the id. */
  const goneAfterSunset = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (now() < SUNSET_MS) return undefined;
    return sendError(reply, 410, 'gone', `GET /pets/{petId} was retired on ${SUNSET_HTTP_DATE}.`);
  };

  api.get<{ Params: { petId: string } }>(
    '/pets/:petId',
    { config: { deprecation: GET_PET_DEPRECATION }, onRequest: goneAfterSunset },
    async (request, reply) => {
      const id = request.params.petId;
      const problem = idProblem(id);
      if (problem !== undefined) return sendError(reply, 400, 'invalid_request', problem);
      const pet = store.findPet(id);
      if (pet === undefined) return sendError(reply, 404, 'not_found', `No pet has id ${id}.`);
      return pet;
    },
  );

  refuseOtherMethods(api, '/pets/:petId', ['GET', 'HEAD']);
}

/** Global onSend hook: the deprecated operation's headers go on every one of its answers (401, 429, 500 too). */
export async function addDeprecationHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const headers = request.routeOptions.config.deprecation;
  if (headers !== undefined) reply.headers(headers);
  return payload;
}
