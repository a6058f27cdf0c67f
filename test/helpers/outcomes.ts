/** What a create whose outcome is unknown must not say, and what it says of a receivable. */

/** Advice to send again, in any words: none may follow a create whose outcome is unknown. */
export const RETRY_ADVICE =
	/try again|retry on fail|safe to run|run (it|this|the node) again|re-?run|later/i;

/** The outcome text of a receivable create (nodes/BusinessFinance/transport/errors.ts). */
export const RECEIVABLE_MAY_EXIST =
	/^Outcome unknown: .*receivable may have been created.*receivable\.created event.*second invoice.*never retried automatically\.$/;

/** The same outcome as a tool gives it to a model: what to do instead, in words it can act on. */
export const RECEIVABLE_MAY_EXIST_FOR_MODEL =
	/^Outcome unknown: .*receivable may have been created.*\. Do not call this tool again for this item: a second request may create a second invoice\. Tell the user that the receivable may have been created.*, and that a person should check it: look for its invoice number in the dashboard/;
