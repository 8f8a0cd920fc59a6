// The sync engine's test kit (issue 18): what a headless program or test needs to drive engines
// against a real stack through what phones meet. Node only (fake-indexeddb, `ws`); no test framework:
// it throws plain Errors and returns problem lists, so any runner can use it. See README.md.
export { manualNetwork, type ManualNetwork } from '../session/network.ts';
export { createTestClock, type TestClock } from './clock.ts';
export { DEFAULT_FAULTS, FaultyNet, sumStats, type FaultRates, type NetMode } from './faulty-net.ts';
export { FaultyIdb, loseConnection } from './idb-faults.ts';
export { LinkEmulation, type LinkModel } from './link.ts';
export { rng, type Rng } from './rng.ts';
export { SIM_TIMINGS, simEngineOptions, TestDevice, type DeviceOptions, type DeviceUser, type StackInfo, type StartOptions } from './device.ts';
export { deliveryProblems, differences, serverUnread, serverView, type Queryable, type ServerConversation, type TypedMessage } from './converge.ts';
export { converged, waitFor } from './wait.ts';
