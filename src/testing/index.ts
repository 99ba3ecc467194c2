// Test doubles for harness authors (`cua-contract/testing`): an in-memory scripted Driver, a
// virtual clock, and the cassette-backed replayer.
export { scriptedDriver, type Script, type ScriptedDriver } from "./scripted-driver.js";
export { createVirtualClock, type VirtualClock } from "#src/driver/clock-virtual.js";
export { createReplayer, prepareReplayCassette, loadReplayCassette, type Replayer, type ReplayerOptions } from "#src/replay/index.js";
