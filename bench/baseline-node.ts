/**
 * A bare n8n node for the benchmark's overhead breakdown: the same requests as the Business
 * Finance node (list every vendor page by page; one POST per input item) through the same n8n
 * path (`this.helpers.httpRequestWithAuthentication` with the same credential), and nothing
 * else: no validation, no rate-limit tracking, no retries, no error mapping. The gap between
 * this node and a plain HTTP loop is what n8n itself costs per request; the gap between the
 * Business Finance node and this one is what the package's own code costs.
 */
import type {
	IDataObject,
	IExecuteFunctions,
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
		const baseUrl = String(credentials.baseUrl).replace(/\/+$/, '');
		const mode = this.getNodeParameter('mode', 0) as string;
		const out: INodeExecutionData[] = [];
		if (mode === 'list') {
			for (let page = 1; ; page++) {
				const body = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'businessFinanceApi',
					{
						method: 'GET',
						url: `${baseUrl}/v1/vendors`,
						qs: { page, limit: 100 },
						json: true,
					},
				)) as { data: IDataObject[]; meta: { has_more: boolean } };
				for (const json of body.data) out.push({ json, pairedItem: { item: 0 } });
				if (!body.meta.has_more) break;
			}
			return [out];
		}
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const body = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'businessFinanceApi',
				{
					method: 'POST',
					url: `${baseUrl}/v1/vendors`,
					body: {
						name: this.getNodeParameter('name', i) as string,
						payment_method: 'crypto',
						wallet_address: this.getNodeParameter('walletAddress', i) as string,
						wallet_chain: 'ethereum',
					},
					json: true,
				},
			)) as { data: IDataObject };
			out.push({ json: body.data, pairedItem: { item: i } });
		}
		return [out];
	}
}
