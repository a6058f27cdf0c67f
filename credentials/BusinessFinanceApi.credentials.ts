import type { IAuthenticateGeneric, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

/**
 * The key goes as `Authorization: Bearer <key>` through `authenticate` (so the HTTP Request node
 * can use it too); the test is code (nodes/BusinessFinance/transport/credential.ts).
 */
export class BusinessFinanceApi implements ICredentialType {
	name = 'businessFinanceApi';

	displayName = 'Business Finance API';

	icon: Icon = {
		light: 'file:../icons/businessFinance.svg',
		dark: 'file:../icons/businessFinance.dark.svg',
	};

	documentationUrl = 'https://github.com/business-finance/n8n-nodes-business-finance#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'svc_...',
			description:
				'Create a key in the Business Finance dashboard under Settings → API Keys. It starts with "svc_" and is shown only once. Paste it without spaces or line breaks.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com',
			description:
				'Address of your Business Finance service, without "/v1" (a trailing "/" or "/v1" is accepted) and without "?" or "#". Plain http:// is only allowed for 127.0.0.1, localhost or ::1.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'whsec_...',
			description:
				'Optional. Used by the Business Finance Trigger to verify deliveries when the service cannot hand out the endpoint’s secret. Starts with "whsec_".',
			hint: 'Leave empty unless the trigger’s activation asks for it: the trigger fetches each endpoint’s secret itself',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
	};
}
