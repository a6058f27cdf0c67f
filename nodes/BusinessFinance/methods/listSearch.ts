import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { API_MAX_PAGE_SIZE } from '../helpers/constants';
import { apiRequest } from '../transport';

/** The `vendorId` locator's list: one page of `GET /v1/vendors?search=` per call, numbered. */
export async function searchVendors(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const token = Number(paginationToken);
	const page = Number.isInteger(token) && token >= 1 ? token : 1;
	const qs: IDataObject = { page, limit: API_MAX_PAGE_SIZE };
	const search = typeof filter === 'string' ? filter.trim() : '';
	if (search !== '') qs.search = search;

	const response = await apiRequest.call(this, 'GET', '/v1/vendors', undefined, qs);
	const vendors = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
	const meta = (response.meta ?? {}) as IDataObject;
	return {
		results: vendors.map((v) => ({
			name: v.email ? `${String(v.name)} (${String(v.email)})` : String(v.name ?? v.id),
			value: String(v.id),
		})),
		paginationToken: meta.has_more === true ? String(page + 1) : undefined,
	};
}
