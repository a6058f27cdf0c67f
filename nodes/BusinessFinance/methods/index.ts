export { searchVendors } from './listSearch';
