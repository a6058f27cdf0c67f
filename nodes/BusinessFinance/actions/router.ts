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

/** An operation; `checkItem` (money or mail) gets Validate All Before Sending. */
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

/** Whether n8n runs the node as a tool: `isToolExecution()` (2.x), or an `ai_tool` output. */
function runsAsTool(ctx: IExecuteFunctions): boolean {
	if (typeof ctx.isToolExecution === 'function' && ctx.isToolExecution()) return true;
	return ctx.getNodeOutputs().some((output) => output.type === NodeConnectionTypes.AiTool);
}

/** What a model is told after the reasons of a refused input. */
const NOTHING_SENT =
	'Nothing was sent to the service. Correct the inputs named above and call the tool again.';

/**
 * The json of an error item under "On Error: Continue", and a tool's answer to a call it could
 * not do. n8n routes to the error output only json of `error`, `message` and `details`, hence
 * `details` there. A tool answers rather than throws, or the model would never learn why
 * (docs/n8n-notes.md).
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

/** Runs the operation per item; a failure stops the node unless Continue On Fail (or a tool). */
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
