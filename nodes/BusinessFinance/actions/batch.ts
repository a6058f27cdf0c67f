/** Validate All Before Sending: one invalid row means no request at all, not a half-sent batch. */
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';
import {
	checkWaitBudget,
	describeProblems,
	markRefusedBeforeSending,
	readCollection,
	type Checked,
} from './input';

/** An operation's per-item check: its parameters to its request, or every problem. Sends nothing. */
export type ItemChecker = (ctx: IExecuteFunctions, i: number) => Checked<unknown>;

type ItemFailure = ReturnType<typeof describeProblems>;

/** What is wrong with item `i`, or undefined: its operation's check and the node options'. */
function itemFailure(
	ctx: IExecuteFunctions,
	checkItem: ItemChecker,
	i: number,
): ItemFailure | undefined {
	try {
		const checks = [checkItem(ctx, i), checkWaitBudget(ctx, i)];
		const problems = checks.flatMap((checked) => (checked.ok ? [] : checked.problems));
		return problems.length ? describeProblems(problems) : undefined;
	} catch (error) {
		// A parameter that cannot be read for this item (an expression that fails on its data).
		const { message, description } = error as Error & { description?: string | null };
		return { message, description: description ?? undefined };
	}
}

function itemLine(index: number, failure: ItemFailure): string {
	const reason = failure.description
		? `${failure.message}. ${failure.description.replace(/\n/g, '; ')}`
		: failure.message;
	return `Item ${index + 1}: ${reason}`;
}

/** Option on and an item invalid: the node's error, and one per item for Continue On Fail. */
export function refuseInvalidBatch(
	ctx: IExecuteFunctions,
	count: number,
	checkItem: ItemChecker,
): { summary: NodeOperationError; perItem: NodeOperationError[] } | undefined {
	// The option is read once for the batch, from the first item, as resource and operation are.
	if (readCollection(ctx, 'options', 0).validateAllBeforeSending !== true) return undefined;
	const failures = new Map<number, ItemFailure>();
	for (let i = 0; i < count; i++) {
		const failure = itemFailure(ctx, checkItem, i);
		if (failure) failures.set(i, failure);
	}
	if (failures.size === 0) return undefined;

	const node = ctx.getNode();
	const numbers = [...failures.keys()].map((i) => i + 1).join(', ');
	const invalid = `${failures.size} of ${count} item${count === 1 ? '' : 's'}`;
	const summary = new NodeOperationError(
		node,
		`Nothing was sent: ${invalid} invalid (item${failures.size === 1 ? '' : 's'} ${numbers}, counting from 1)`,
		{
			description: [
				"'Validate All Before Sending' is on, so no item is sent while any is invalid. Fix these items (counting from 1, the first input item is item 1) and run again:",
				...[...failures].map(([index, failure]) => itemLine(index, failure)),
			].join('\n'),
		},
	);
	const passed: ItemFailure = {
		message: `Not sent: ${invalid} invalid`,
		description: `'Validate All Before Sending' is on, so nothing was sent because of the invalid items (${numbers}, counting from 1). This item passed its checks: fix the others and run again.`,
	};
	const perItem = Array.from({ length: count }, (_, i) => {
		const { message, description } = failures.get(i) ?? passed;
		return markRefusedBeforeSending(
			new NodeOperationError(node, message, { itemIndex: i, description }),
		);
	});
	return { summary, perItem };
}
