/** The two shapes most operations share: one request with a body per item, and Get Many. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { collection, returnAllAndLimit, shownFor, simplifyField } from '../descriptions/common';
import { shaped, type ResourceName, type SimplifiableResource } from '../helpers/resourceFields';
import { apiRequestAllItems, type LostAnswer } from '../transport';
import { checkPaging, ItemCheck, readCollection, sendable, type Checked } from './input';
import { compact, requestResource, type OperationContext } from './utils';

export interface BodyRequest {
	path: string;
	body?: IDataObject;
}

interface BodyOperationConfig<P> {
	resource: ResourceName;
	operation: string;
	method: 'POST' | 'PATCH';
	/** The operation's parameters (`shownFor` adds the operation to their displayOptions). */
	fields: INodeProperties[];
	/** The item's parameters, as `check` takes them. */
	read: (ctx: IExecuteFunctions, i: number) => P;
	/** The request for those parameters, or every problem with them. Sends nothing. */
	check: (parameters: P) => Checked<BodyRequest>;
	/**
	 * What the request may have done when its answer is lost; given, it is sent once (every POST is,
	 * and a PATCH that gives one): the outcome the node's error and a tool's answer say.
	 */
	lost?: (request: BodyRequest) => LostAnswer | undefined;
}

/**
 * One request per item. `checkItem` is exported only where money or mail is sent (Validate All
 * Before Sending); `sendsOnce` (every POST) tells the router to warn of n8n's Retry On Fail.
 */
export function bodyOperation<P>(config: BodyOperationConfig<P>) {
	const { resource, method } = config;
	const checkItem = (ctx: IExecuteFunctions, i: number) => config.check(config.read(ctx, i));

	async function execute(
		this: IExecuteFunctions,
		i: number,
		context: OperationContext,
	): Promise<IDataObject> {
		const request = sendable(this, checkItem(this, i), i);
		const call = { ...context, resource, method, itemIndex: i, lost: config.lost?.(request) };
		return await requestResource.call(this, { ...call, ...request });
	}

	const description = shownFor(resource, config.operation, config.fields);
	return { description, checkItem, execute, sendsOnce: method === 'POST' };
}

interface ListOperationConfig {
	resource: string;
	operation: string;
	path: string;
	/** The record each element is, for Simplify. */
	item: SimplifiableResource;
	/** What the Limit hint calls the elements ("vendors"). */
	plural: string;
	filters: INodeProperties[];
	/** The query for an item's filters (unset ones dropped), noting their problems in `check`. */
	query: (check: ItemCheck, filters: IDataObject) => IDataObject;
}

/** Get Many: every page or up to Limit, each element shaped (Simplify), filters as the query. */
export function listOperation(config: ListOperationConfig) {
	const description = shownFor(config.resource, config.operation, [
		...returnAllAndLimit(config.plural),
		simplifyField(config.item),
		collection('filters', config.filters),
	]);

	async function execute(
		this: IExecuteFunctions,
		i: number,
		{ waitBudgetMs }: OperationContext,
	): Promise<IDataObject[]> {
		const check = new ItemCheck();
		const paging = checkPaging(check, this, i);
		const qs = config.query(check, compact(readCollection(this, 'filters', i)));
		const request = sendable(this, check.result({ qs, paging }), i);
		const simplify = this.getNodeParameter('simplify', i, false) === true;
		return await apiRequestAllItems.call(this, config.path, request.qs, {
			...request.paging,
			itemIndex: i,
			waitBudgetMs,
			shapeItem: (element) => shaped(config.item, element, simplify) as IDataObject,
		});
	}

	/** What an agent is told instead of an empty answer, which a model misreads. */
	function nothingListed(ctx: IExecuteFunctions, i: number): string {
		const filters = Object.entries(compact(readCollection(ctx, 'filters', i)));
		const named = filters.map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(', ');
		return named
			? `No ${config.plural} matched (${named}).`
			: `The service listed no ${config.plural}.`;
	}

	return { description, execute, nothingListed };
}
