/** What a create whose outcome is unknown must not say, and what it says of a receivable. */

/** Advice to send again, in any words: none may follow a create whose outcome is unknown. */
export const RETRY_ADVICE =
	/try again|retry on fail|safe to run|run (it|this|the node) again|re-?run|later/i;

/** The outcome text of a receivable create (nodes/BusinessFinance/transport/errors.ts). */
export const RECEIVABLE_MAY_EXIST =
	/^Outcome unknown: .*receivable may have been created.*receivable\.created event.*second invoice.*never retried automatically\.$/;
