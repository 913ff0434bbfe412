// What an operation may do with its caller while it runs, when the face offers it: put questions
// that the caller answers before the operation goes on (MCP: input requests, answered on a retry or
// over the session), and report progress and notes. A face that offers none of this (REST, web
// forms) leaves both out, and operations go on without asking.
import type { DomainErrorCode } from '../domain/errors.ts';

/** One question: a message for a person and the fields of the answer (flat, simply typed). */
export type Question = {
  key: string;
  message: string;
  fields: Record<
    string,
    { type: 'boolean' | 'string'; title: string; description: string; default?: boolean | string }
  >;
  required: string[];
};

/** The caller's answer: accepted with its fields, or declined / cancelled. */
export type Answer = { action: 'accept' | 'decline' | 'cancel'; content: Record<string, unknown> };

export type Interaction = {
  /** Whether the caller can answer questions during this call. */
  canAsk: boolean;
  /** The caller's answer to the question `key`, when it came back with one. */
  answer(key: string): Answer | undefined;
};

/** What an operation reports while it runs, to callers that want to hear it. */
export type Reporter = {
  progress(done: number, total: number, message: string): Promise<void>;
  note(level: 'debug' | 'info' | 'notice' | 'warning', message: string): Promise<void>;
};

export const SILENT: Reporter = { progress: async () => {}, note: async () => {} };

/** Thrown by an operation to put questions to its caller; the pipeline answers with them. */
export class QuestionsAsked extends Error {
  /** The code a face that cannot ask would show (it never should: only asked when canAsk). */
  readonly code: DomainErrorCode = 'conflict';
  constructor(readonly questions: Question[]) {
    super('The caller is asked to answer first.');
  }
}
