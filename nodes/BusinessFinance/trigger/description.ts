import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { EVENT_TYPES } from '../helpers/constants';

/** The `events` value that selects every event type (sent to the service as no filter). */
export const ALL_EVENTS = '*';

function eventLabel(type: string): string {
	return type
		.split('.')
		.map((part) => part.charAt(0).toUpperCase() + part.slice(1))
		.join(' ');
}

const eventOptions: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		description: 'Every event the service sends, now and in future',
	},
	...EVENT_TYPES.map((type) => ({
		name: eventLabel(type),
		value: type,
		description: `The ${type} event`,
	})),
];

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Leave "Webhook Endpoint ID" empty to let this trigger create an endpoint on the service when the workflow is activated and delete it when it is deactivated. If your account cannot create endpoints through the API, create one in the service\'s dashboard and paste its ID here: the trigger then points it at this workflow and restores its earlier settings on deactivation.',
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Webhook Endpoint ID',
		name: 'webhookEndpointId',
		type: 'string',
		default: '',
		placeholder: 'ep_2bX9...',
		description:
			'ID of an existing webhook endpoint (starts with ep_) to point at this workflow. Empty: create an endpoint automatically.',
		hint: 'Its URL, event filter, description and disabled flag are restored when the workflow is deactivated',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options: eventOptions,
		default: [ALL_EVENTS],
		required: true,
		description:
			"The event types that start the workflow. They are set as the endpoint's event filter and checked again on receipt.",
	},
	{
		displayName:
			"Deliveries are verified with the endpoint's signing secret (Standard Webhooks). The trigger fetches it from the service; if the service cannot hand it out, put the endpoint's signing secret (whsec_...) into the credential's \"Webhook Signing Secret\" field.",
		name: 'secretNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Allow Unsigned Deliveries',
				name: 'allowUnsigned',
				type: 'boolean',
				default: false,
				description:
					'Whether to accept deliveries that carry no signature at all (under any header name), or that cannot be verified because no signing secret is available. A delivery whose signature is present but wrong is always refused. Not recommended: anyone who knows the webhook URL could start the workflow.',
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{
						name: 'Whole Event',
						value: 'event',
						description: 'The event envelope: ID, type, created_at and data',
					},
					{
						name: 'Data Only',
						value: 'data',
						description: "Only the resource in the event's data field",
					},
				],
				default: 'event',
				description: 'What each execution receives',
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 300,
				description:
					"Maximum age, in either direction, of a delivery's webhook-timestamp. Older or future-dated deliveries are refused.",
			},
		],
	},
];
