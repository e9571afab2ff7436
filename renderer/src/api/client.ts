/** The gateway's client (electron/client), derived from the contract's route table; one import point, like contract.ts. */
export * from '../../../electron/client';
