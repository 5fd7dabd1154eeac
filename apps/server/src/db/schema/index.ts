export * from './app-settings';
export * from './rate-limits';
export * from './seed-phrases';
export * from './sessions';
export * from './two-factor';
export * from './users';
