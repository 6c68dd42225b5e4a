import type { RecordStep, StepResult } from '../domain/record-step.js';
import type { Answer, ApiCall } from './api-call.js';

/**
 * What an operation makes of a call before the guards run: the record step it needs once the request
 * is admitted (none when it can answer without the store, e.g. a body that fails validation), and how
 * it answers then. Deciding the step first lets a shared store take admission and the step together.
 */
export interface OperationPlan {
  step?: RecordStep;
  /** Runs once the request is admitted, with the step's result. */
  answer(result: unknown): Answer;
}

/** How an operation plans its answer to one call. */
export type Planner = (call: ApiCall) => OperationPlan | Promise<OperationPlan>;

/**
 * A plan with a record step, typed by the step.
 * @example afterStep({ kind: 'listCategories' }, (categories) => jsonAnswer(categories))
 */
export function afterStep<S extends RecordStep>(step: S, answer: (result: StepResult<S>) => Answer): OperationPlan {
  return { step, answer: answer as (result: unknown) => Answer };
}

/** A plan that needs no record step: its answer is known before admission, and given only after it. */
export function answerWith(answer: Answer): OperationPlan {
  return { answer: () => answer };
}
