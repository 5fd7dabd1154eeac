import type {
  FastifyContextConfig,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
} from 'fastify';
import { AppError } from '../lib/app-error';
import { IDEMPOTENCY_HEADER } from '../modules/ledger';

/**
 * The one guard against control characters in what clients send. PostgreSQL refuses a NUL
 * (U+0000) in text, so without it a NUL anywhere in a request became a 500 at the first
 * query; the other C0 controls and DEL are refused too, as no form of this app can type
 * them and they only ever arrive to break a log line, a CSV cell or an e-mail header.
 *
 * Fields where a person types several lines (a chat message, a reason, an address) are
 * named on their route, `config: { multilineFields: ['text'] }`: there TAB, LF and CR pass,
 * and everything else below U+0020 is still refused. A name is the field's path in the
 * JSON body, dot-separated (`bank.accountName`, `items.0.note`), `*` standing for any one
 * segment (`values.*`); a query parameter, route parameter or multipart text field is
 * named by its own name.
 *
 * The realtime socket's upgrade is an ordinary GET and passes through here too; the only
 * message a client sends on the socket is `{ type: 'subscribe' }`, checked as a literal by
 * the hub, so no client text travels that way.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    multilineFields?: readonly string[];
  }
  interface FastifyInstance {
    /** Every route with its body schema and multi-line fields, so a test can walk them. */
    guardedRoutes(): GuardedRoute[];
  }
}

export type GuardedRoute = {
  method: string;
  url: string;
  body: unknown;
  multilineFields: readonly string[];
};

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** Whether a text holds a C0 control or DEL; with `lines`, TAB, LF and CR are allowed. */
function hasControl(value: string, lines: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x20 && c !== 0x7f) continue;
    if (lines && (c === TAB || c === LF || c === CR)) continue;
    return true;
  }
  return false;
}

/** The start of every refusal of this guard, so a client (and a test) can recognise one. */
export const CONTROL_CHARACTERS_MESSAGE = 'Text cannot contain control characters';

/**
 * A field's name as the message shows it: bounded, as a key is client text too. The
 * catch-all route's parameter ('*') is the address itself.
 */
function shown(field: string): string {
  if (field === '*') return 'the address';
  return field.length > 80 ? `${field.slice(0, 80)}…` : field;
}

function refusal(where: string): AppError {
  return new AppError('VALIDATION_FAILED', `${CONTROL_CHARACTERS_MESSAGE} (${where}).`);
}

/** Whether a route lets this field span lines. */
export function isMultilineField(config: FastifyContextConfig | undefined, field: string): boolean {
  const patterns = config?.multilineFields;
  if (!patterns) return false;
  const segments = field.split('.');
  return patterns.some((pattern) => {
    const want = pattern.split('.');
    return (
      want.length === segments.length &&
      want.every((segment, i) => segment === '*' || segment === segments[i])
    );
  });
}

/** Refuses one text value of a field (multipart text fields are checked with this too). */
export function checkText(
  config: FastifyContextConfig | undefined,
  field: string,
  value: string,
): void {
  if (hasControl(value, isMultilineField(config, field))) throw refusal(`in ${shown(field)}`);
}

/**
 * Walks a parsed value (a JSON body, the query string, the route parameters) and refuses
 * the first string, or object key, with a control character in it. Iterative rather than
 * recursive: a 1 MB body of nested arrays is deeper than the call stack.
 */
export function checkValue(
  config: FastifyContextConfig | undefined,
  root: unknown,
  rootName: string,
): void {
  const stack: Array<{ value: unknown; path: string }> = [{ value: root, path: '' }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      checkText(config, path === '' ? rootName : path, value);
    } else if (value !== null && typeof value === 'object') {
      const entries = Array.isArray(value)
        ? value.map((item, i): [string, unknown] => [String(i), item])
        : Object.entries(value);
      for (const [key] of entries) {
        if (hasControl(key, false)) {
          throw refusal(path === '' ? 'in a field name' : `in a field name in ${shown(path)}`);
        }
      }
      // Pushed last to first, so the message names the first bad field in the body's order.
      for (const [key, item] of entries.reverse()) {
        stack.push({ value: item, path: path === '' ? key : `${path}.${key}` });
      }
    }
  }
}

function checkRequest(request: FastifyRequest): void {
  const config = request.routeOptions.config;
  checkValue(config, request.params, 'the address');
  checkValue(config, request.query, 'the query');
  checkValue(config, request.body, 'the request body');
  // The one header whose value is stored. Node's HTTP parser already refuses control
  // characters in headers; this keeps the rule true whatever carries the request.
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key !== undefined) checkValue(undefined, key, 'Idempotency-Key');
}

/**
 * Registers the guard on every route: before schema validation (preValidation), so that
 * no validator, handler or query ever sees such a string. Multipart text fields are read
 * by the route itself; `readUpload` (plugins/uploads.ts) checks them with `checkText`.
 */
export function registerInputGuard(app: FastifyInstance): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.decorate('guardedRoutes', () =>
    routes.flatMap((r) =>
      [r.method].flat().map((method) => ({
        method,
        url: r.url,
        body: r.schema?.body,
        multilineFields: r.config?.multilineFields ?? [],
      })),
    ),
  );
  // A hook that never waits takes `done`: no promise per request. Fastify turns a throw
  // inside it into the request's error, as it does for an async hook's rejection.
  app.addHook('preValidation', (request, _reply, done) => {
    checkRequest(request);
    done();
  });
}

/**
 * The router's own refusals, before any route or hook runs: a path that does not decode
 * (`/api/admin/kyc/%zz`) or a parameter over Fastify's length limit. Fastify would answer
 * them in its own shape, echoing the whole path; here they are the app's 400 like any
 * other bad input. Passed to Fastify as `frameworkErrors`.
 */
export function answerRouterError(
  err: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const message =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A part of this address is too long.'
      : err.code === 'FST_ERR_BAD_URL'
        ? 'This address is not valid.'
        : null;
  if (message === null) {
    void reply.send(err);
    return;
  }
  void reply.status(400).send({ error: 'VALIDATION_FAILED', message });
}
