/** Deposits' front door: what staff's screens use of address requests (see ../README.md). */
export type { AddedAddress } from './address-requests';
export type { AddressRequests } from './deposits.service';
