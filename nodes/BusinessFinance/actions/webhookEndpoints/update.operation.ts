import type { IDataObject } from 'n8n-workflow';
import { collection, webhookEndpointIdField } from '../../descriptions/common';
import { eventTypeOptions } from '../../descriptions/events';
import { isSet, validateBoolean } from '../../helpers/validators';
import { validateEventTypes, validateUpdate, validateWebhookUrl } from '../../helpers/requestRules';
import { checkWebhookEndpointPath, ItemCheck, readCollection } from '../input';
import { bodyOperation } from '../operations';

export const { description, execute } = bodyOperation({
	resource: 'webhookEndpoint',
	operation: 'update',
	method: 'PATCH',
	fields: [
		webhookEndpointIdField,
		collection('updateFields', [
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
				options: eventTypeOptions,
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
		]),
	],
	read: (ctx, i) => ({
		webhookEndpointId: ctx.getNodeParameter('webhookEndpointId', i, ''),
		updateFields: readCollection(ctx, 'updateFields', i),
	}),
	check: (p) => {
		const check = new ItemCheck();
		const path = checkWebhookEndpointPath(check, p.webhookEndpointId);
		const { url, filterTypes, disabled } = p.updateFields;
		const body: IDataObject = {};
		if (isSet(url)) body.url = check.take(validateWebhookUrl(url));
		if (isSet(p.updateFields.description)) body.description = p.updateFields.description;
		// An empty selection is sent as [] on purpose: the service reads it as "every event type".
		if (filterTypes !== undefined) body.filter_types = check.take(validateEventTypes(filterTypes));
		if (disabled !== undefined) body.disabled = check.take(validateBoolean(disabled, 'Disabled'));
		check.add(validateUpdate(body));
		return check.result({ path, body });
	},
});

export const toolDescription =
	'Changes a webhook endpoint (id ep_...): its URL, description, event types or whether it is disabled. Changing the URL or disabling it redirects or stops the events other workflows receive. Returns the endpoint.';
