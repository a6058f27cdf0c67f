import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { methodDetailsFields, paymentMethodField } from '../../descriptions/methodDetails';
import { byDisplayName } from '../../descriptions/order';
import {
	isPaymentMethod,
	prepareMethodDetails,
	separateMethodDetails,
} from '../../helpers/paymentPolicy';
import { isSet, validateEmail, validateRequiredText } from '../../helpers/validators';
import { ItemCheck, readCollection, sendable, type Checked } from '../input';
import { requestResource, type OperationContext } from '../utils';

const show = { resource: ['vendor'], operation: ['create'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme Supplies LLC',
		description: 'The vendor’s name',
		displayOptions: { show },
	},
	paymentMethodField({
		required: true,
		displayOptions: { show },
		hint: "Add the details the method needs under 'Additional Fields'",
	}),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: byDisplayName([
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				default: '',
				placeholder: 'e.g. ar@acme.com',
			},
			...methodDetailsFields('/paymentMethod'),
		]),
	},
];

export interface CreateVendorParameters {
	name: unknown;
	paymentMethod: unknown;
	additionalFields: IDataObject;
}

function readParameters(ctx: IExecuteFunctions, i: number): CreateVendorParameters {
	return {
		name: ctx.getNodeParameter('name', i, ''),
		paymentMethod: ctx.getNodeParameter('paymentMethod', i),
		additionalFields: readCollection(ctx, 'additionalFields', i),
	};
}

/** The body to send for one item, or every problem with it. Sends nothing. */
export function checkParameters(p: CreateVendorParameters): Checked<IDataObject> {
	const check = new ItemCheck();
	const { details, others } = separateMethodDetails(p.additionalFields);
	const body: IDataObject = { name: check.take(validateRequiredText(p.name, 'Name')) };
	if (isSet(others.email)) body.email = check.take(validateEmail(others.email, 'Email'));
	if (isPaymentMethod(p.paymentMethod)) body.payment_method = p.paymentMethod;
	const method = prepareMethodDetails(p.paymentMethod, details, { context: 'vendor' });
	check.add(method.problems);
	Object.assign(body, method.details);
	return check.result(body);
}

/** Item `i`'s request or its problems, from its parameters; what execute and Validate All Before Sending check. */
export function checkItem(ctx: IExecuteFunctions, i: number): Checked<IDataObject> {
	return checkParameters(readParameters(ctx, i));
}

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const body = sendable(this, checkItem(this, i), i);
	return requestResource.call(this, 'vendor', 'POST', '/v1/vendors', body, i, waitBudgetMs);
}
