import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { isSet } from '../helpers/validators';
import { withStableColumns, type ResourceName } from '../helpers/resourceFields';
import { apiRequest, dataOf, type HttpMethod, type LostAnswer } from '../transport';

/** What every operation receives besides the item index. */
export interface OperationContext {
	/** Total time the transport may spend waiting for rate limits, in milliseconds. */
	waitBudgetMs: number;
}

/** `dueDate` → `due_date`. */
function toSnakeCase(name: string): string {
	return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Drops fields that are not set. Does not mutate its argument. */
export const compact = (fields: IDataObject): IDataObject =>
	Object.fromEntries(Object.entries(fields).filter(([, value]) => isSet(value)));

/** Maps camelCase keys to the API's snake_case names, dropping fields that are not set. */
export const toApiBody = (fields: IDataObject): IDataObject =>
	Object.fromEntries(
		Object.entries(compact(fields)).map(([key, value]) => [toSnakeCase(key), value]),
	);

interface ApiCall extends OperationContext {
	method: HttpMethod;
	path: string;
	body?: IDataObject;
	itemIndex: number;
	/** For a request sent once that is no POST: what its lost answer may mean. */
	lost?: LostAnswer;
}

/** One API call, answering the response's `data`. */
export async function requestData(this: IExecuteFunctions, call: ApiCall): Promise<IDataObject> {
	const { method, path, body, itemIndex, waitBudgetMs, lost } = call;
	const options = { itemIndex, waitBudgetMs, lost };
	return dataOf(await apiRequest.call(this, method, path, body, undefined, options)) as IDataObject;
}

/**
 * An operation with no parameters of its own that GETs `path` and answers its `data`, which is
 * no record type an agent's answer is cut to (`answers: null`).
 */
export function readOnce(path: string) {
	const description: INodeProperties[] = [];
	async function execute(this: IExecuteFunctions, i: number, context: OperationContext) {
		return await requestData.call(this, { ...context, method: 'GET', path, itemIndex: i });
	}
	return { description, execute, answers: null };
}

/** One API call that answers one resource: its `data` in stable columns. */
export async function requestResource(
	this: IExecuteFunctions,
	call: ApiCall & { resource: ResourceName },
): Promise<IDataObject> {
	return withStableColumns(call.resource, await requestData.call(this, call));
}
