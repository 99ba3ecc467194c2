// The step scripts and answers the synthetic scenario cassettes are built from
// (scripts/build-scenario-cassettes.js). Captured refs: X/… = Xvfb + gtk3-demo, H/… = headless.
// Only flows the real recordings cannot hold are here: on Linux the 0.21.0 runtime reports every
// click `unverifiable`, so a confirmed click, a suspected no-op and a run of confirmed clicks
// exist only as edited captures; gtk3demo-click-timeout is the small flow the external-harness
// examples replay (docs/invariants.md, examples/harness-python).
const PID = 24132;
const WIN = 4194311;
const TOKEN = "s00000004:15";

const observe = { action: "observe", pid: PID, window_id: WIN };
const clickToken = { action: "click", pid: PID, window_id: WIN, element_token: TOKEN };

const LW = { tool: "list_windows", captured: "X/01_list_windows" };
const GWS = { tool: "get_window_state", captured: "X/10_get_window_state_full_no_screenshot" };
const GWS_AGAIN = { tool: "get_window_state", captured: "X/14_get_window_state_resnapshot" };
const CLICK_UNVERIFIABLE = { tool: "click", captured: "X/11_click_element_token" };

const clickWith = (effect, why) => ({
  tool: "click",
  captured: "X/11_click_element_token",
  edit: (raw) => raw.replace('"effect":"unverifiable"', effect),
  why,
});
const CLICK_CONFIRMED = clickWith('"effect":"confirmed","evidence":[{"kind":"window_change"}]', "effect confirmed with window_change evidence");
const CLICK_NOOP = clickWith(
  '"effect":"suspected_noop","escalation":{"reason":"suspected_noop","target":"pixel"}',
  "effect suspected_noop with a pixel escalation",
);

/** start_session answered for the harness's own label. */
const startSession = () => ({
  tool: "start_session",
  captured: "H/10_start_session",
  edit: (raw) => raw.replaceAll('"demo"', '"cua-contract-harness"'),
  why: "session label set to the harness's",
});

export const FLOWS = [
  {
    name: "gtk3demo-click-confirmed",
    about: "Observe the gtk3-demo window, click an element; the driver confirms the effect.",
    steps: [observe, clickToken],
    answers: [LW, GWS, CLICK_CONFIRMED],
  },
  {
    name: "gtk3demo-click-noop",
    about: "Observe, click; the driver suspects the click did nothing.",
    steps: [observe, clickToken],
    answers: [LW, GWS, CLICK_NOOP],
  },

  {
    name: "gtk3demo-click-timeout",
    about: "Observe, click (the harness times out after the click landed), rebuild the session, observe again.",
    steps: [observe, clickToken, observe],
    answers: [LW, GWS, { ...CLICK_UNVERIFIABLE, as: "timeout" }, startSession(), LW, GWS_AGAIN],
  },

  {
    name: "gtk3demo-click-loop",
    about: "Observe, then the same confirmed click over and over until the loop guard pauses the run.",
    steps: [observe, ...Array.from({ length: 7 }, () => clickToken)],
    answers: [LW, GWS, ...Array.from({ length: 6 }, () => CLICK_CONFIRMED)],
  },
];
