import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { eventsPropertyHint } from '../descriptions/builderHints';
import { collection } from '../descriptions/common';
import {
	ALL_EVENTS,
	ALL_EVENTS_LABEL,
	eventOutputOption,
	eventTypeOptions,
} from '../descriptions/events';
import { byName } from '../descriptions/order';
import { DEFAULT_TOLERANCE_SECONDS } from './standardWebhooks';

/** All Events and every event type, A–Z by label. */
const eventOptions: INodePropertyOptions[] = byName([
	{
		name: ALL_EVENTS_LABEL,
		value: ALL_EVENTS,
		description: 'Every event the service sends, now and in future',
	},
	...eventTypeOptions,
]);

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Webhook Endpoint ID',
		name: 'webhookEndpointId',
		type: 'string',
		default: '',
		placeholder: 'e.g. ep_2b9f6c1d8a',
		description:
			"ID of an existing webhook endpoint (starts with ep_) to point at this workflow. Leave empty to let the trigger create an endpoint on activation and delete it on deactivation; if your account cannot create endpoints through the API, create one in the service's dashboard and paste its ID here.",
		hint: 'Empty: an endpoint is made on publishing, deleted on unpublishing. A given one gets its settings back on unpublishing',
	},
	{
		// n8n's guidelines: an event parameter of a trigger is called Trigger On and has no tooltip.
		displayName: 'Trigger On',
		name: 'events',
		type: 'multiOptions',
		options: eventOptions,
		default: [ALL_EVENTS],
		required: true,
		builderHint: eventsPropertyHint,
	},
	collection('options', [
		{
			displayName: 'Allow Unsigned Deliveries',
			name: 'allowUnsigned',
			type: 'boolean',
			default: false,
			description:
				"Whether to accept deliveries that carry no signature at all (under any header name), or that cannot be verified because no signing secret is available (the trigger fetches the endpoint's secret from the service, or takes the credential's 'Webhook Signing Secret'). A delivery whose signature is present but wrong is always refused. Not recommended: anyone who knows the webhook URL could start the workflow.",
		},
		eventOutputOption,
		{
			displayName: 'Timestamp Tolerance (Seconds)',
			name: 'toleranceSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TOLERANCE_SECONDS,
			description:
				"Maximum age, in either direction, of a delivery's webhook-timestamp. Older or future-dated deliveries are refused.",
		},
	]),
];
