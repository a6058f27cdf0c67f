import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { API_MAX_PAGE_SIZE, UUID_PATTERN } from '../helpers/constants';
import { SIMPLIFIED_FIELDS, type SimplifiableResource } from '../helpers/resourceFields';

/**
 * The vendor resource locator: pick from a searchable list, or paste an id. With `optional`,
 * an empty id passes the editor's check (n8n refuses to run a workflow whose locator value fails
 * the mode's regex, even when empty), for the payable's "vendor id or vendor name".
 */
export function vendorLocator(
	overrides: Partial<INodeProperties> = {},
	optional = false,
): INodeProperties {
	const regex = optional ? `^$|${UUID_PATTERN}` : UUID_PATTERN;
	return {
		displayName: 'Vendor',
		name: 'vendorId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The vendor, chosen from the list or given by its ID',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a vendor...',
				typeOptions: { searchListMethod: 'searchVendors', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f9c1e2a-8b7d-4c6e-9a51-0d2f4b6c8e10',
				validation: [
					{
						type: 'regex',
						properties: { regex, errorMessage: 'Not a valid vendor ID: expected a UUID' },
					},
				],
			},
		],
		...overrides,
	};
}

/** The parameters of one operation, shown for its resource and operation (and their own `show`). */
export function shownFor(
	resource: string,
	operation: string,
	fields: INodeProperties[],
): INodeProperties[] {
	return fields.map((field) => ({
		...field,
		displayOptions: {
			...field.displayOptions,
			show: { resource: [resource], operation: [operation], ...field.displayOptions?.show },
		},
	}));
}

const COLLECTIONS = {
	additionalFields: ['Additional Fields', 'Add Field'],
	updateFields: ['Update Fields', 'Add Field'],
	filters: ['Filters', 'Add Filter'],
	options: ['Options', 'Add Option'],
};

/** A collection of optional fields: Additional Fields (create), Update Fields, Filters or Options. */
export function collection(
	name: keyof typeof COLLECTIONS,
	options: INodeProperties[],
): INodeProperties {
	const [displayName, placeholder] = COLLECTIONS[name];
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** A resource's Operation field, then the parameters of each of its operations, in order. */
export function operationProperties(
	resource: string,
	options: INodePropertyOptions[],
	defaultOperation: string,
	operations: Array<{ description: INodeProperties[] }>,
): INodeProperties[] {
	const field: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
	return [field, ...operations.flatMap((operation) => operation.description)];
}

/** `returnAll` and `limit` for a list operation (`shownFor` adds the operation). */
export function returnAllAndLimit(what: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			description: 'Max number of results to return',
			hint: `May exceed ${API_MAX_PAGE_SIZE}: the node fetches as many pages of ${what} as needed`,
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** The id of a webhook endpoint (`ep_…`), for the webhook endpoint operations. */
export const webhookEndpointIdField: INodeProperties = {
	displayName: 'Webhook Endpoint ID',
	name: 'webhookEndpointId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. ep_2b9f6c1d8a',
	description: 'The ID of the webhook endpoint (starts with ep_)',
};

/** n8n's Simplify toggle; its description names the fields kept (SIMPLIFIED_FIELDS). */
export function simplifyField(resource: SimplifiableResource): INodeProperties {
	const fields = SIMPLIFIED_FIELDS[resource].join(', ');
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: `Whether to return a simplified version of the response instead of the raw data. Keeps only: ${fields}.`,
	};
}

/** A create's required Amount, with what it says of the value the service takes. */
export function amountField(description: string, hint?: string): INodeProperties {
	return {
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		required: true,
		// null, not 0: the field starts empty (its placeholder shown), not at a value the node
		// refuses; n8n flags no empty number as required (docs/n8n-notes.md), the node's check does
		default: null,
		placeholder: 'e.g. 1250.00',
		typeOptions: { numberPrecision: 2 },
		description,
		...(hint && { hint }),
	};
}
