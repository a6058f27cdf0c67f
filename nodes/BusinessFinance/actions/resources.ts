/**
 * The resource modules, each exporting its operations (`<op>.operation.ts`) and its description:
 * the one table of what the node can do. Adding an operation is its file and its line in the
 * resource's index.ts; a resource, its folder and its line here (CONTRIBUTING.md, "Code map and
 * common changes").
 */
import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';
import type { ResourceName } from '../helpers/resourceFields';
import type { ItemChecker } from './batch';
import * as payable from './payables';
import * as receivable from './receivables';
import * as treasury from './treasury';
import type { OperationContext } from './utils';
import * as vendor from './vendors';
import * as webhookEndpoint from './webhookEndpoints';

export const RESOURCES = { receivable, payable, vendor, treasury, webhookEndpoint };

/** An operation module; `checkItem` (money or mail) gets Validate All Before Sending. */
export interface Operation {
	/** An item's resource object(s) to output. */
	execute: (
		this: IExecuteFunctions,
		itemIndex: number,
		context: OperationContext,
	) => Promise<IDataObject | IDataObject[]>;
	toolDescription: string;
	checkItem?: ItemChecker;
	/** Sent once (a create or send): n8n's Retry On Fail may repeat it (router.ts warns). */
	sendsOnce?: boolean;
	/** A listing's answer to an agent when it lists nothing. */
	nothingListed?: (ctx: IExecuteFunctions, i: number) => string;
	/** The record type it answers with, for the shape an agent gets (default: its resource). */
	answers?: ResourceName | null;
}

const isOperation = (value: unknown): value is Operation =>
	typeof (value as Operation | undefined)?.execute === 'function';

/** Every operation, in the order the resources and their modules list them. */
export function allOperations(): Array<{ resource: string; operation: string; op: Operation }> {
	return Object.entries(RESOURCES).flatMap(([resource, module]) =>
		Object.entries(module)
			.filter(([, op]) => isOperation(op))
			.map(([operation, op]) => ({ resource, operation, op: op as Operation })),
	);
}

/** The operation the node's parameters choose; refused when there is none (a hand-edited workflow). */
export function chosenOperation(ctx: IExecuteFunctions) {
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const chosen = allOperations().find((o) => o.resource === resource && o.operation === operation);
	if (chosen) return chosen;
	throw new NodeOperationError(
		ctx.getNode(),
		`The operation "${operation}" of the resource "${resource}" is not supported`,
	);
}

/** The record type `op` of `resource` answers with, if any. */
export const answerOf = (resource: string, op: Operation): ResourceName | undefined =>
	op.answers === undefined ? (resource as ResourceName) : (op.answers ?? undefined);

/** The node's Resource options: each resource module's `option`, by name as n8n's lint orders them. */
export const resourceOptions = () =>
	Object.entries(RESOURCES)
		.map(([value, module]) => ({ ...module.option, value }))
		.sort((a, b) => a.name.localeCompare(b.name));

/**
 * Where Validate All Before Sending is shown: the operations with a `checkItem` (money or mail).
 * n8n shows an option for every pair of the lists; test/node/description.test.ts checks that each
 * pair it shows is one of them.
 */
export function checkedBeforeSending() {
	const checked = allOperations().filter(({ op }) => op.checkItem);
	return {
		'/resource': [...new Set(checked.map(({ resource }) => resource))],
		'/operation': [...new Set(checked.map(({ operation }) => operation))],
	};
}
