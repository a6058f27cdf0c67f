import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import * as payable from './payable';
import * as receivable from './receivable';
import * as treasury from './treasury';
import * as vendor from './vendor';
import * as webhookEndpoint from './webhookEndpoint';
import { DEFAULT_RATE_LIMIT_WAIT_SECONDS } from '../helpers/constants';
import { validateSeconds } from '../helpers/primitives';
import { ItemCheck, sendable } from './input';
import type { OperationExecute } from './utils';

/** resource → operation → per-item function. */
const operations: Record<string, Record<string, { execute: OperationExecute }>> = {
	receivable: { create: receivable.create, update: receivable.update, send: receivable.send },
	payable: { create: payable.create, update: payable.update },
	vendor: { create: vendor.create, getAll: vendor.getAll, update: vendor.update },
	treasury: {
		getDepositInstructions: treasury.getDepositInstructions,
		getTransactions: treasury.getTransactions,
		getBalance: treasury.getBalance,
	},
	webhookEndpoint: { get: webhookEndpoint.get, update: webhookEndpoint.update },
};

function waitBudgetMs(ctx: IExecuteFunctions, i: number): number {
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const check = new ItemCheck();
	const seconds = check.take(
		validateSeconds(
			options.rateLimitWaitSeconds ?? DEFAULT_RATE_LIMIT_WAIT_SECONDS,
			'Max Wait for Rate Limits',
			DEFAULT_RATE_LIMIT_WAIT_SECONDS,
		),
	);
	return Math.round(sendable(ctx, check.result(seconds ?? 0), i) * 1000);
}

/**
 * The json of an error item under "On Error: Continue". n8n sends an item to the error output
 * ("Continue (using error output)") only when its json holds nothing but `error`, `message` and
 * `details` (an item-level `error` would do too, but n8n then cuts the json down to the message),
 * so there the description goes into `details`; on the regular output the item also carries the
 * description and the HTTP status under their own names.
 */
function errorItemJson(
	ctx: IExecuteFunctions,
	error: NodeApiError | NodeOperationError,
): IDataObject {
	const json: IDataObject = { error: error.message };
	if (ctx.getNode().onError === 'continueErrorOutput') {
		if (error.description) json.details = error.description;
		return json;
	}
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
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

	const returnData: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const result = await op.execute.call(this, i, { waitBudgetMs: waitBudgetMs(this, i) });
			const list = Array.isArray(result) ? result : [result];
			for (const json of list) {
				returnData.push({ json: json ?? {}, pairedItem: { item: i } });
			}
		} catch (caught) {
			const error =
				caught instanceof NodeOperationError || caught instanceof NodeApiError
					? caught
					: new NodeOperationError(this.getNode(), caught as Error, { itemIndex: i });
			if (error.context.itemIndex === undefined) error.context.itemIndex = i;
			if (this.continueOnFail()) {
				returnData.push({ json: errorItemJson(this, error), pairedItem: { item: i } });
				continue;
			}
			throw error;
		}
	}
	return [returnData];
}
