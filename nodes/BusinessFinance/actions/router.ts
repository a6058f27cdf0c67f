import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import * as payable from './payables';
import * as receivable from './receivables';
import * as treasury from './treasury';
import * as vendor from './vendors';
import * as webhookEndpoint from './webhookEndpoints';
import { refuseInvalidBatch, validateAllBeforeSending, type ItemChecker } from './batch';
import { checkWaitBudget, sendable, wasRefusedBeforeSending } from './input';
import { forAgent, type ResourceName } from '../helpers/resourceFields';
import type { OperationExecute } from './utils';

/**
 * An operation: its per-item function, and for the operations that send money or mail, the
 * per-item check that Validate All Before Sending runs on every item first.
 */
interface Operation {
	execute: OperationExecute;
	checkItem?: ItemChecker;
}

/** resource → operation → its functions (a module that exports `checkItem` gets the option). */
const operations: Record<string, Record<string, Operation>> = {
	receivable: { create: receivable.create, update: receivable.update, send: receivable.send },
	payable: { create: payable.create, update: payable.update },
	vendor: {
		create: vendor.create,
		get: vendor.get,
		getAll: vendor.getAll,
		update: vendor.update,
	},
	treasury: {
		getDepositInstructions: treasury.getDepositInstructions,
		getTransactions: treasury.getTransactions,
		getBalance: treasury.getBalance,
	},
	webhookEndpoint: { get: webhookEndpoint.get, update: webhookEndpoint.update },
};

/** The record type each operation answers with, for the shape an agent gets. */
function answerResource(resource: string, operation: string): ResourceName | undefined {
	if (resource === 'treasury') return operation === 'getTransactions' ? 'transaction' : undefined;
	return resource as ResourceName;
}

/**
 * Whether n8n runs the node as an agent's tool (the "Business Finance Tool" n8n generates from
 * `usableAsTool`, under an AI Agent or the MCP Server Trigger). n8n 2.x says so through
 * `isToolExecution()` where it calls the node for a tool; every version gives the tool variant
 * one output, the `ai_tool` connection, which is what `getNodeOutputs()` reports.
 */
function runsAsTool(ctx: IExecuteFunctions): boolean {
	if (typeof ctx.isToolExecution === 'function' && ctx.isToolExecution()) return true;
	return ctx.getNodeOutputs().some((output) => output.type === NodeConnectionTypes.AiTool);
}

/** What a model is told after the reasons of a refused input. */
const NOTHING_SENT =
	'Nothing was sent to the service. Correct the inputs named above and call the tool again.';

/**
 * The json of an error item under "On Error: Continue", and a tool's answer to a call it could
 * not do. n8n sends an item to the error output ("Continue (using error output)") only when its
 * json holds nothing but `error`, `message` and `details` (an item-level `error` would do too, but
 * n8n then cuts the json down to the message), so there the description goes into `details`; on
 * the regular output the item also carries the description and the HTTP status under their own
 * names. A tool answers with the error rather than throwing it: n8n's AI Agent ends the workflow
 * on a thrown error on 1.x and gives the model its message alone on 2.x (docs/n8n-notes.md), so
 * the model would never learn why; it also learns whether anything was sent.
 */
function errorItemJson(
	ctx: IExecuteFunctions,
	error: NodeApiError | NodeOperationError,
	asTool = false,
): IDataObject {
	const json: IDataObject = { error: error.message };
	if (ctx.getNode().onError === 'continueErrorOutput' && !asTool) {
		if (error.description) json.details = error.description;
		return json;
	}
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	if (asTool && wasRefusedBeforeSending(error)) json.outcome = NOTHING_SENT;
	return json;
}

/**
 * Runs the selected operation once per input item. Every output item carries `pairedItem`.
 * With "Continue On Fail" a failing item gives `{json: {error, ...}}` and the others go on;
 * otherwise the first failure stops the node with the item's index.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const op = operations[resource]?.[operation];
	if (!op) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of the resource "${resource}" is not supported`,
		);
	}

	const asTool = runsAsTool(this);
	if (op.checkItem && validateAllBeforeSending(this)) {
		const refusal = refuseInvalidBatch(this, items.length, op.checkItem);
		if (refusal && !this.continueOnFail() && !asTool) throw refusal.summary;
		if (refusal) {
			return [
				refusal.perItem.map((error, i) => ({
					json: errorItemJson(this, error, asTool),
					pairedItem: { item: i },
				})),
			];
		}
	}

	const answerOf = answerResource(resource, operation);
	const returnData: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const waitBudgetMs = sendable(this, checkWaitBudget(this, i), i);
			const result = await op.execute.call(this, i, { waitBudgetMs });
			const list = Array.isArray(result) ? result : [result];
			for (const json of list) {
				const shaped = asTool ? (forAgent(answerOf, json) as IDataObject) : json;
				returnData.push({ json: shaped ?? {}, pairedItem: { item: i } });
			}
		} catch (caught) {
			const error =
				caught instanceof NodeOperationError || caught instanceof NodeApiError
					? caught
					: new NodeOperationError(this.getNode(), caught as Error, { itemIndex: i });
			if (error.context.itemIndex === undefined) error.context.itemIndex = i;
			// As a tool the error is the answer (errorItemJson says why); never thrown.
			if (this.continueOnFail() || asTool) {
				returnData.push({ json: errorItemJson(this, error, asTool), pairedItem: { item: i } });
				continue;
			}
			throw error;
		}
	}
	return [returnData];
}
