import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
} from 'n8n-workflow';
import { shownFor, simplifyField, vendorLocator } from '../../descriptions/common';
import { answerMeansNoRoute } from '../../helpers/assumedRoutes';
import { validateUuid } from '../../helpers/validators';
import { shaped } from '../../helpers/resourceFields';
import { getApiErrorInfo } from '../../transport';
import { ItemCheck, readLocator, sendable } from '../input';
import { requestData, type OperationContext } from '../utils';

export const description = shownFor('vendor', 'get', [vendorLocator(), simplifyField('vendor')]);

/**
 * The service's 404/405 rephrased: `GET /v1/vendors/{id}` is an assumed route, so a service
 * without it must say so and point at what works, not claim the vendor is missing.
 */
function explainNotFound(caught: unknown, vendorId: string): unknown {
	if (!(caught instanceof NodeApiError || caught instanceof NodeOperationError)) return caught;
	const info = getApiErrorInfo(caught);
	if (!info) return caught;
	if (answerMeansNoRoute(info)) {
		caught.message = `This service does not offer getting one vendor by ID (GET /v1/vendors/{id} answered HTTP ${info.status})`;
		caught.description =
			'Getting a single vendor is an optional route that this service lacks. Use Vendor → Get Many with a Search (the vendor’s name or email) instead, and keep the item whose "id" matches.';
	} else if (info.status === 404) {
		caught.description = `The service answered “${caught.message}”. Check the ID: the vendor may have been deleted or belong to another account. Vendor → Get Many with a Search finds vendors by name or email.`;
		caught.message = `No vendor with ID ${vendorId}`;
	}
	return caught;
}

export async function execute(
	this: IExecuteFunctions,
	i: number,
	context: OperationContext,
): Promise<IDataObject> {
	const vendorId = readLocator(this, 'vendorId', i);
	const check = new ItemCheck();
	const id = check.take(validateUuid(vendorId, 'Vendor'));
	const path = sendable(this, check.result(`/v1/vendors/${id}`), i);
	let vendor: IDataObject;
	try {
		vendor = await requestData.call(this, { ...context, method: 'GET', path, itemIndex: i });
	} catch (error) {
		throw explainNotFound(error, String(vendorId).trim());
	}
	const simplify = this.getNodeParameter('simplify', i, false) === true;
	return shaped('vendor', vendor, simplify);
}

export const toolDescription =
	'Reads one vendor by its id (a UUID). Returns its id, name, email, payment method and when it was last updated.';
