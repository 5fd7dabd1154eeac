import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error';
import { MAX_UPLOAD_BYTES } from '../lib/file-sniff';
import { checkText } from './input-guard';

/** Most files one upload request may carry (chat sends several at once). */
export const MAX_UPLOAD_FILES = 10;

/**
 * Enables `multipart/form-data` bodies for the routes of ONE plugin: call it inside the
 * route plugin that takes uploads. The plugin is not global on purpose, so every other
 * route keeps accepting JSON only (see plugins/csrf.ts); upload routes are still covered
 * by the Origin check.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, {
    // Files over the limit are cut at the limit and flagged (`tooLarge`) instead of
    // failing the request, so each route checks its fields in the order its form
    // defines and then answers with its own message.
    throwFileSizeLimit: false,
    limits: {
      fileSize: MAX_UPLOAD_BYTES,
      files: MAX_UPLOAD_FILES,
      fields: 20,
      fieldSize: 16 * 1024,
      parts: MAX_UPLOAD_FILES + 20,
      headerPairs: 200,
    },
  });
}

export type UploadedFile = {
  field: string;
  /** The name the browser sent; only for display, never trusted for type or path. */
  filename: string;
  bytes: Buffer;
  /** More than MAX_UPLOAD_BYTES were sent; `bytes` holds only the first part. */
  tooLarge: boolean;
};

export type Upload = { fields: Record<string, string>; files: UploadedFile[] };

const UNREADABLE_FORM = 'The form could not be read.';

/**
 * Refuses a `multipart/form-data` header the parser would trip over or misread: without a
 * boundary (busboy throws, which is no fault of ours), or with a charset other than UTF-8
 * (busboy would quietly decode the fields in a charset the sender did not use; browsers send
 * none).
 */
function checkMultipartType(contentType: string): void {
  const params = new Map<string, string>();
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const value = param.slice(eq + 1).trim();
    params.set(
      param.slice(0, eq).trim().toLowerCase(),
      value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value,
    );
  }
  const boundary = params.get('boundary') ?? '';
  // RFC 2046: 1 to 70 characters.
  if (boundary.length < 1 || boundary.length > 70) {
    throw new AppError('VALIDATION_FAILED', UNREADABLE_FORM);
  }
  const charset = params.get('charset');
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new AppError('VALIDATION_FAILED', UNREADABLE_FORM);
  }
}

/**
 * Reads a whole multipart request into memory (files are at most 10 MB each).
 * A request that is not multipart, has too many parts, or a text field longer than the
 * limit is refused with a plain message. Text fields, field names and file names meet the
 * input guard's rule (plugins/input-guard.ts) as they arrive, as a JSON body's strings do
 * before validation: the route's `multilineFields` name the fields that may span lines.
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError('VALIDATION_FAILED', 'Please send the form with its files.');
  }
  checkMultipartType(request.headers['content-type'] ?? '');
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    const config = request.routeOptions.config;
    for await (const part of request.parts()) {
      checkText(undefined, 'a field name', part.fieldname);
      if (part.type === 'file') {
        // Only shown, but kept with the file in the database.
        checkText(undefined, `the name of the file in ${part.fieldname}`, part.filename);
        const bytes = await part.toBuffer();
        files.push({
          field: part.fieldname,
          filename: part.filename,
          bytes,
          tooLarge: part.file.truncated,
        });
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) {
          throw new AppError('VALIDATION_FAILED', 'A form field is too long.');
        }
        const value = String(part.value ?? '');
        checkText(config, part.fieldname, value);
        if (!(part.fieldname in fields)) fields[part.fieldname] = value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') {
      throw new AppError(
        'VALIDATION_FAILED',
        `Please send at most ${MAX_UPLOAD_FILES} files at once.`,
      );
    }
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new AppError('VALIDATION_FAILED', 'The form has too many fields.');
    }
    if (code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      throw new AppError('VALIDATION_FAILED', UNREADABLE_FORM);
    }
    if (err instanceof Error && /Boundary not found|Malformed content type/i.test(err.message)) {
      throw new AppError('VALIDATION_FAILED', UNREADABLE_FORM);
    }
    if (err instanceof Error && /terminated early|Unexpected end|Malformed/i.test(err.message)) {
      throw new AppError('VALIDATION_FAILED', 'The upload was interrupted. Please try again.');
    }
    throw err;
  }
  return { fields, files };
}
