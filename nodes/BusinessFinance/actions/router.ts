import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import { refuseInvalidBatch } from './batch';
import { answerOf, chosenOperation, type Operation } from './resources';
import { checkWaitBudget, sendable, wasRefusedBeforeSending } from './input';
import { forAgent, selectedForAgent, type ResourceName } from '../helpers/resourceFields';
import type { ToolOutput } from '../descriptions/tool';
import { unknownOutcome } from '../transport';

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
	const lost = unknownOutcome(error);
	// a model is given the outcome in its own words, not the person's (which names the dashboard)
	if (error.description && !(asTool && lost)) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	const outcome = wasRefusedBeforeSending(error) ? NOTHING_SENT : lost?.model;
	if (asTool && outcome) json.outcome = outcome;
	return json;
}

type Shape = (json: IDataObject) => IDataObject;

/** How a tool answers with each record of item `i`: its Output choice (descriptions/tool.ts). */
function toolShape(ctx: IExecuteFunctions, i: number, resource?: ResourceName): Shape {
	const output = ctx.getNodeParameter('output', i, 'simplified') as ToolOutput;
	if (output === 'raw') return (json) => json;
	if (output !== 'selected') return (json) => forAgent(resource, json) as IDataObject;
	const listed = String(ctx.getNodeParameter('outputFields', i, ''));
	const names = listed.split(/[\s,]+/).filter(Boolean);
	if (names.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Output is Selected Fields, but Fields is empty', {
			description:
				'Name the fields the model gets, separated by commas (e.g. name, email), or choose Simplified',
			itemIndex: i,
		});
	}
	return (json) => selectedForAgent(names, json) as IDataObject;
}

const RETRY_ON_FAIL =
	"Retry On Fail is on in this node's Settings: when the service fails after receiving a create, a send or a status change (a 5xx answer, a dropped connection), n8n sends it again, which may create a second record, email the customer twice or be refused as a change already made. Switch Retry On Fail off for this node; rate limits are waited out without it.";

/**
 * What a person is shown about n8n's Retry On Fail: on a create or send that succeeded, a hint;
 * on any request whose outcome is unknown (a status change too), in its error.
 */
function warnOfRetryOnFail(ctx: IExecuteFunctions, op: Operation, error?: Error): void {
	if (ctx.getNode().retryOnFail !== true) return;
	if (!error) {
		if (!op.sendsOnce) return;
		ctx.addExecutionHints?.({ message: RETRY_ON_FAIL, type: 'warning', location: 'outputPane' });
		return;
	}
	// n8n keeps no hints of a run that failed: the error says it instead.
	const described = error as NodeApiError | NodeOperationError;
	if (unknownOutcome(error))
		described.description = `${described.description ?? ''} ${RETRY_ON_FAIL}`.trim();
}

/** Runs the operation per item; a failure stops the node unless Continue On Fail (or a tool). */
export async function router(
	this: IExecuteFunctions,
	continueOnFail: boolean,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const { resource, op } = chosenOperation(this);
	const asTool = runsAsTool(this);
	const errorItem = (error: NodeApiError | NodeOperationError, i: number) => ({
		json: errorItemJson(this, error, asTool),
		pairedItem: { item: i },
	});
	const refusal = op.checkItem && refuseInvalidBatch(this, items.length, op.checkItem);
	if (refusal && !continueOnFail && !asTool) throw refusal.summary;
	if (refusal) return [refusal.perItem.map(errorItem)];

	const answers = answerOf(resource, op);
	const returnData: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const shape = asTool ? toolShape(this, i, answers) : undefined;
			const waitBudgetMs = sendable(this, checkWaitBudget(this, i), i);
			const result = await op.execute.call(this, i, { waitBudgetMs });
			const list = Array.isArray(result) ? result : [result];
			if (asTool && list.length === 0 && op.nothingListed) {
				returnData.push({ json: { message: op.nothingListed(this, i) }, pairedItem: { item: i } });
			}
			for (const json of list) {
				returnData.push({ json: (shape ? shape(json) : json) ?? {}, pairedItem: { item: i } });
			}
		} catch (caught) {
			const error =
				caught instanceof NodeOperationError || caught instanceof NodeApiError
					? caught
					: new NodeOperationError(this.getNode(), caught as Error, { itemIndex: i });
			if (error.context.itemIndex === undefined) error.context.itemIndex = i;
			warnOfRetryOnFail(this, op, error);
			// As a tool the error is the answer (errorItemJson says why); never thrown.
			if (continueOnFail || asTool) {
				returnData.push(errorItem(error, i));
				continue;
			}
			throw error;
		}
	}
	warnOfRetryOnFail(this, op);
	return [returnData];
}
