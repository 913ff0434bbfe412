// The process logger: JSON lines (pino). Anything that could carry a secret is redacted by path, so
// a careless `log.info({ req })` still never writes a key, password or session token.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'password',
  '*.password',
  'key',
  '*.key',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'credential',
  '*.credential',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'hamlet' } },
    destination as DestinationStream | undefined,
  );
}
