import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { webhookEndpointIdField } from '../../descriptions/common';
import { EVENT_TYPES } from '../../helpers/constants';
import { inputError, requireUpdate, webhookEndpointIdParam } from '../input';
import { isSet, requestData, type OperationContext } from '../utils';

const show = { resource: ['webhookEndpoint'], operation: ['update'] };

export const description: INodeProperties[] = [
	webhookEndpointIdField('update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				placeholder: 'e.g. Invoices to accounting',
			},
			{
				displayName: 'Disabled',
				name: 'disabled',
				type: 'boolean',
				default: false,
				description: 'Whether the endpoint stops receiving events',
			},
			{
				displayName: 'Event Types',
				name: 'filterTypes',
				type: 'multiOptions',
				options: EVENT_TYPES.map((value) => ({ name: value, value })),
				default: [],
				description:
					'The event types sent to the endpoint. Leave the selection empty to receive every event type.',
			},
			{
				displayName: 'URL',
				name: 'url',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://example.com/hooks/finance',
				description: 'Where events are sent (an absolute http or https URL)',
			},
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	i: number,
	{ waitBudgetMs }: OperationContext,
): Promise<IDataObject> {
	const id = webhookEndpointIdParam(this, i);
	const fields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
	const body: IDataObject = {};
	if (isSet(fields.url)) {
		const url = String(fields.url).trim();
		if (!/^https?:\/\/[^\s/]+/i.test(url)) {
			throw inputError(
				this,
				`URL must be an absolute http or https URL, got "${url.slice(0, 80)}"`,
				'Enter a URL such as https://example.com/hooks/finance',
				i,
			);
		}
		body.url = url;
	}
	if (isSet(fields.description)) body.description = fields.description;
	// An empty selection is sent as [] on purpose: the service reads it as "every event type".
	if (fields.filterTypes !== undefined) {
		const types = fields.filterTypes;
		const list = Array.isArray(types)
			? types
			: String(types)
					.split(',')
					.map((t) => t.trim())
					.filter(Boolean);
		const unknown = list.filter((t) => !(EVENT_TYPES as readonly string[]).includes(String(t)));
		if (unknown.length > 0) {
			throw inputError(
				this,
				`Unknown event type(s) in Event Types: ${unknown.join(', ')}`,
				`Use only: ${EVENT_TYPES.join(', ')}`,
				i,
			);
		}
		body.filter_types = list;
	}
	if (fields.disabled !== undefined) {
		const disabled =
			typeof fields.disabled === 'string' ? fields.disabled.trim().toLowerCase() : fields.disabled;
		if (disabled === true || disabled === 'true') body.disabled = true;
		else if (disabled === false || disabled === 'false') body.disabled = false;
		else {
			throw inputError(
				this,
				'Disabled must be true or false',
				'Set Disabled to on or off (or an expression giving true or false)',
				i,
			);
		}
	}
	requireUpdate(this, body, i);

	return requestData.call(
		this,
		'PATCH',
		`/v1/webhooks/${encodeURIComponent(id)}`,
		body,
		i,
		waitBudgetMs,
	);
}
