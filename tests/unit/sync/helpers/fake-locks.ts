// The kit's Web Locks and tab-channel stand-ins (sync/testing/web-locks.ts).
export { channelHub, fakeLocks, type FakeLocks } from '../../../../sync/testing/web-locks.ts';
