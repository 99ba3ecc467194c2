// `cua-contract/testing`: test doubles for harness authors (an in-memory scripted Driver, a virtual
// clock) and a throwaway X desktop to run a live driver on.
export { scriptedDriver, type Script, type ScriptedDriver } from "#src/testing/scripted-driver.js";
export { createVirtualClock, type VirtualClock } from "#src/driver/clock-virtual.js";
export { startDesktop, stopDesktop, type Desktop, type DesktopOptions } from "#src/desktop/desktop.js";
