// Tells n8n's own cost per request from the package's: no validation, rate-limit tracking,
// retries or error mapping.
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

export class BenchBaseline implements INodeType {
	description = {
		displayName: 'Bench Baseline',
		name: 'benchBaseline',
		group: ['transform'],
		version: 1,
		description: 'Bare requests through httpRequestWithAuthentication',
		defaults: { name: 'Bench Baseline' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'businessFinanceApi', required: true }],
		properties: [
			{ displayName: 'Mode', name: 'mode', type: 'string', default: 'list' },
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{ displayName: 'Wallet Address', name: 'walletAddress', type: 'string', default: '' },
		],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('businessFinanceApi');
		const url = `${String(credentials.baseUrl).replace(/\/+$/, '')}/v1/vendors`;
		const request = async (options: Omit<IHttpRequestOptions, 'url'>) =>
			await this.helpers.httpRequestWithAuthentication.call(this, 'businessFinanceApi', {
				...options,
				url,
				json: true,
			});
		const out: INodeExecutionData[] = [];
		if (this.getNodeParameter('mode', 0) === 'list') {
			for (let page = 1; ; page++) {
				const body = await request({ method: 'GET', qs: { page, limit: 100 } });
				for (const json of body.data as IDataObject[]) out.push({ json, pairedItem: { item: 0 } });
				if (!body.meta.has_more) break;
			}
			return [out];
		}
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const body = await request({
				method: 'POST',
				body: {
					name: this.getNodeParameter('name', i) as string,
					payment_method: 'crypto',
					wallet_address: this.getNodeParameter('walletAddress', i) as string,
					wallet_chain: 'ethereum',
				},
			});
			out.push({ json: body.data as IDataObject, pairedItem: { item: i } });
		}
		return [out];
	}
}
