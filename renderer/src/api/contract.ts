/** The renderer sees the API only through the shared contract; one import point keeps that visible. */
export * from '../../../electron/contract';
