import { type Outcome, stageAt } from '../simulator-kit';

/** A fill that fails, is pending again, and ends refunded (scripted through `POST /__sim/scripts`). */
export const FAILURE_THEN_REFUND = 'failure-then-refund';
export type RelayOutcome = Outcome | typeof FAILURE_THEN_REFUND;
export const RELAY_OUTCOMES = [FAILURE_THEN_REFUND] as const;

export type Stage = 'waiting' | 'depositing' | 'pending' | 'submitted' | Outcome;
const STAGES_AFTER_DEPOSIT: readonly Stage[] = ['depositing', 'pending', 'submitted'];

/**
 * Relay's own client walks "pending -> failure -> pending -> refund" (relay-kit
 * packages/sdk/src/utils/executeSteps/websocketHandlers.ts): `failure` holds for several polls here.
 */
export const FAILURE_THEN_REFUND_STAGES: readonly Stage[] = [
  'depositing',
  'pending',
  'failure',
  'failure',
  'failure',
  'pending',
  'refund',
];

/** Where a request stands after its deposit; the failure-then-refund walk takes one stage per poll. */
export function stageAfterDeposit(outcome: RelayOutcome, polls: number, settleAfterPolls: number): Stage {
  if (outcome !== FAILURE_THEN_REFUND)
    return stageAt<Stage>([...STAGES_AFTER_DEPOSIT, outcome], polls, settleAfterPolls);
  const oneStagePerPoll = Math.max(settleAfterPolls, FAILURE_THEN_REFUND_STAGES.length - 1);
  return stageAt(FAILURE_THEN_REFUND_STAGES, polls, oneStagePerPoll);
}
